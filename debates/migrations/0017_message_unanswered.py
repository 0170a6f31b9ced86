from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0016_message_cut_off"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="unanswered",
            field=models.CharField(
                blank=True,
                choices=[("wrote_nothing", "Wrote Nothing"), ("call_failed", "Call Failed")],
                default="",
                max_length=16,
            ),
        ),
    ]
