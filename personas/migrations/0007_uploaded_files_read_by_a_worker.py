# A build's or a corpus upload's files are kept until a worker has read them.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('personas', '0006_persona_id_per_owner'),
    ]

    operations = [
        migrations.AddField(
            model_name='corpusupload',
            name='files',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='personabuild',
            name='files',
            field=models.JSONField(blank=True, default=list),
        ),
    ]
