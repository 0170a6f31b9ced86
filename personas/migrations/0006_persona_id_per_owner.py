# Persona ids are unique per owner (and among the shared personas), no longer across all users:
# nobody can learn another user's private ids by trying to take them.

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('personas', '0005_remove_evaluation_leftovers'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='persona',
            name='persona_id',
            field=models.SlugField(max_length=80),
        ),
        migrations.AddConstraint(
            model_name='persona',
            constraint=models.UniqueConstraint(fields=('owner', 'persona_id'), name='persona_id_once_per_owner'),
        ),
        migrations.AddConstraint(
            model_name='persona',
            constraint=models.UniqueConstraint(condition=models.Q(('owner__isnull', True)), fields=('persona_id',), name='persona_id_once_in_seed'),
        ),
    ]
