import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """The owner's interjections into a running debate (issue 25)."""

    dependencies = [
        ("debates", "0021_blackboard_notes_rolling_summaries"),
        ("personas", "0001_initial"),
        ("projects", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="message",
            name="kind",
            field=models.CharField(
                choices=[
                    ("opening", "Opening"),
                    ("key_argument", "Key Argument"),
                    ("reply", "Reply"),
                    ("dismissal", "Dismissal"),
                    ("closing", "Closing"),
                    ("entry", "Entry"),
                    ("exchange", "Exchange"),
                    ("analysis", "Analysis"),
                    ("critique", "Critique"),
                    ("synthesis", "Synthesis"),
                    ("draft", "Draft"),
                    ("revision", "Revision"),
                    ("artifact", "Artifact"),
                    ("answer", "Answer"),
                ],
                max_length=20,
            ),
        ),
        migrations.CreateModel(
            name="Interjection",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[("question", "Question"), ("evidence", "Evidence"), ("challenge", "Challenge")],
                        default="question",
                        max_length=12,
                    ),
                ),
                ("text", models.TextField()),
                ("link", models.URLField(blank=True, max_length=500)),
                ("document_title", models.CharField(blank=True, max_length=200)),
                ("seq", models.PositiveIntegerField(default=0)),
                ("read_at_turn", models.PositiveIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "answer",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="debates.message",
                    ),
                ),
                (
                    "debate",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="interjections", to="debates.debate"
                    ),
                ),
                (
                    "document",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="projects.document",
                    ),
                ),
                (
                    "to_persona",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="personas.persona",
                    ),
                ),
            ],
            options={"ordering": ["created_at", "id"]},
        ),
    ]
