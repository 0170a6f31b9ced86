"""Older `manage.py evaluate` runs left their scenario personas ("eval-…", with no owner) behind,
shown to every user as seed personas, with the debates kept by --keep. The evaluation now works
under a throwaway owner of its own and deletes what it made; this removes what older runs left."""

from django.db import migrations


def remove_leftovers(apps, schema_editor):
    Persona = apps.get_model("personas", "Persona")
    Debate = apps.get_model("debates", "Debate")
    leftovers = Persona.objects.filter(owner__isnull=True, persona_id__startswith="eval-")
    # Only the evaluation ever dealt these personas, and only to its own ownerless debates.
    Debate.objects.filter(owner__isnull=True, participants__persona__in=leftovers).delete()
    _unused(leftovers, apps).delete()


def _unused(leftovers, apps):
    Participant = apps.get_model("debates", "Participant")
    Message = apps.get_model("debates", "Message")
    used = set(Participant.objects.filter(persona__in=leftovers).values_list("persona_id", flat=True))
    used |= set(Message.objects.filter(persona__in=leftovers).values_list("persona_id", flat=True))
    return leftovers.exclude(pk__in=used)


class Migration(migrations.Migration):
    dependencies = [
        ("personas", "0004_persona_build"),
        ("debates", "0014_message_citations"),
    ]

    operations = [migrations.RunPython(remove_leftovers, migrations.RunPython.noop)]
