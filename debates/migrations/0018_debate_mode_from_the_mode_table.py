from django.db import migrations, models


class Migration(migrations.Migration):
    """Debate.mode names a row of the mode table (debates/modes.py), not choices of its own, so a
    registered mode needs no migration. The column is unchanged."""

    dependencies = [
        ("debates", "0017_message_unanswered"),
    ]

    operations = [
        migrations.AlterField(
            model_name="debate",
            name="mode",
            field=models.CharField(default="dialogue", max_length=20),
        ),
    ]
