"""Candidate facts wait for their owner's review; recalls keep why they recalled what they did.

Existing established facts (agreed by all, confidence 0.85 or more) were already given to debates
as settled: they are marked confirmed, so nothing the owner relied on disappears. Their owner can
still reject one on the project's memory page."""

from django.db import migrations, models


def confirm_existing_facts(apps, schema_editor):
    Insight = apps.get_model("memory", "Insight")
    Insight.objects.filter(agreed_by_all=True, confidence__gte=0.85).update(review="confirmed")


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0002_halfvec_embeddings"),
    ]

    operations = [
        migrations.AddField(
            model_name="insight",
            name="review",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "Not a fact"),
                    ("candidate", "Awaiting your review"),
                    ("confirmed", "Confirmed"),
                    ("rejected", "Rejected"),
                ],
                default="",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="memoryrecall",
            name="scope",
            field=models.CharField(
                blank=True,
                choices=[
                    ("project", "this project's debates"),
                    ("all", "all your debates (you opted in)"),
                    ("none", "nothing: a debate with no context recalls no insights unless you opt in"),
                ],
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="memoryrecall",
            name="embedding_model",
            field=models.CharField(blank=True, max_length=80),
        ),
        migrations.AddField(
            model_name="memoryrecall",
            name="insight_floor",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="memoryrecall",
            name="fact_floor",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(confirm_existing_facts, migrations.RunPython.noop),
    ]
