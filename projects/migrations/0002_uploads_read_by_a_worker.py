# Uploaded documents and repository archives are kept until a worker has read them.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('projects', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='document',
            name='refusal',
            field=models.CharField(blank=True, help_text='Why the file could not be read.', max_length=500),
        ),
        migrations.AddField(
            model_name='document',
            name='status',
            field=models.CharField(choices=[('reading', 'Reading'), ('ready', 'Ready'), ('refused', 'Refused')], default='ready', max_length=10),
        ),
        migrations.AddField(
            model_name='document',
            name='upload',
            field=models.BinaryField(blank=True, editable=False, null=True),
        ),
        migrations.AlterField(
            model_name='document',
            name='text',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='repository',
            name='filename',
            field=models.CharField(blank=True, help_text="An uploaded archive's file name.", max_length=255),
        ),
        migrations.AddField(
            model_name='repository',
            name='refusal',
            field=models.CharField(blank=True, help_text='Why the archive could not be read.', max_length=500),
        ),
        migrations.AddField(
            model_name='repository',
            name='status',
            field=models.CharField(choices=[('reading', 'Reading'), ('ready', 'Ready'), ('refused', 'Refused')], default='ready', max_length=10),
        ),
        migrations.AddField(
            model_name='repository',
            name='upload',
            field=models.BinaryField(blank=True, editable=False, null=True),
        ),
    ]
