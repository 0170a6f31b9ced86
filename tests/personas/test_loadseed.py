from io import StringIO

import pytest
from django.core.management import call_command

from personas.models import AnchorExcerpt, Deck, Persona
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


def loadseed(*args) -> str:
    out = StringIO()
    call_command("loadseed", *args, stdout=out)
    return out.getvalue()


def test_it_loads_the_seed_personas_and_decks():
    output = loadseed()

    assert Persona.objects.count() >= 8
    assert Deck.objects.count() >= 2
    assert all(deck.personas.count() >= 2 for deck in Deck.objects.all())
    assert "Seed loaded" in output


def test_it_does_nothing_the_second_time():
    loadseed()
    before = list(Persona.objects.values_list("persona_id", "updated_at"))
    excerpts = AnchorExcerpt.objects.count()

    output = loadseed()

    assert output == ""
    assert list(Persona.objects.values_list("persona_id", "updated_at")) == before
    assert AnchorExcerpt.objects.count() == excerpts


def test_it_leaves_a_database_that_already_has_personas_alone():
    PersonaFactory(persona_id="someone-else")

    loadseed()

    assert list(Persona.objects.values_list("persona_id", flat=True)) == ["someone-else"]


def test_force_reimports_without_duplicating():
    PersonaFactory(persona_id="someone-else")
    loadseed("--force")
    counts = (Persona.objects.count(), AnchorExcerpt.objects.count(), Deck.objects.count())

    loadseed("--force")

    assert (Persona.objects.count(), AnchorExcerpt.objects.count(), Deck.objects.count()) == counts
    assert Persona.objects.filter(persona_id="someone-else").exists()
