from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from personas.models import Persona
from tests.personas.samples import contract_data, database_is_empty, deck_data, write_json

pytestmark = pytest.mark.django_db


def test_it_prints_what_it_created_and_updated(tmp_path):
    write_json(tmp_path / "bear.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "decks.json", [deck_data("markets", ["the-macro-bear"])])
    out = StringIO()

    call_command("importpersonas", str(tmp_path), stdout=out)
    call_command("importpersonas", str(tmp_path / "bear.json"), stdout=out)

    assert out.getvalue().splitlines() == [
        "Created personas (1): the-macro-bear",
        "Created decks (1): markets",
        "Unchanged personas (1): the-macro-bear",
    ]
    assert Persona.objects.count() == 1


def test_it_fails_with_the_problems_and_writes_nothing(tmp_path):
    write_json(tmp_path / "good.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "bad.json", contract_data("the-perma-bull", timeHorizon=["soon"]))

    with pytest.raises(CommandError) as caught:
        call_command("importpersonas", str(tmp_path))

    assert str(caught.value) == (
        f"nothing was imported:\n{tmp_path / 'bad.json'}: timeHorizon: Input should be a valid string"
    )
    assert database_is_empty()
