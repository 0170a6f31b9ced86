from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0015_debate_recall_all_insights"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="cut_off",
            field=models.BooleanField(default=False),
        ),
    ]
