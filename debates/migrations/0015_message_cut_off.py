from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("debates", "0014_message_citations"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="cut_off",
            field=models.BooleanField(default=False),
        ),
    ]
