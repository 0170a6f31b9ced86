from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0014_message_citations"),
    ]

    operations = [
        migrations.AddField(
            model_name="debate",
            name="recall_all_insights",
            field=models.BooleanField(default=False),
        ),
    ]
