import pytest

from personas.models import Deck, Persona
from personas.services import SEED_DIR, persona_export, persona_import
from tests.personas.samples import database_is_empty, folder_texts

pytestmark = pytest.mark.django_db


def test_export_import_export_gives_identical_files(tmp_path):
    persona_import(path=SEED_DIR)
    persona_export(directory=tmp_path / "first")

    Deck.objects.all().delete()
    Persona.objects.all().delete()
    assert database_is_empty()
    persona_import(path=tmp_path / "first")
    persona_export(directory=tmp_path / "second")

    first = folder_texts(tmp_path / "first")
    assert len(first) >= 9 and "decks.json" in first
    assert folder_texts(tmp_path / "second") == first


def test_the_shipped_seed_is_already_in_export_format(tmp_path):
    persona_import(path=SEED_DIR)

    persona_export(directory=tmp_path)

    assert folder_texts(tmp_path) == folder_texts(SEED_DIR)


def test_a_partial_export_leaves_out_decks_it_cannot_describe_whole(tmp_path):
    persona_import(path=SEED_DIR)

    written = persona_export(personas=Persona.objects.filter(persona_id="macro-trader"), directory=tmp_path)

    assert [path.name for path in written] == ["macro-trader.json"]
