"""`manage.py buildpersona`: a contract drafted from a folder, through the fake Messages API,
whose excerpts are all found verbatim in the folder's files."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from personas.contracts import PersonaContract
from personas.corpus.models import CorpusDocument
from personas.models import Deck, Persona

pytestmark = pytest.mark.django_db


def test_it_writes_a_contract_whose_excerpts_are_all_in_the_folder(builder_api, corpus_dir, tmp_path):
    out = tmp_path / "ada.json"

    call_command("buildpersona", "--name", "Ada Essayist", "--corpus", str(corpus_dir), "--out", str(out))

    contract = json.loads(out.read_text())
    PersonaContract.model_validate(contract)
    files = [path.read_text() for path in corpus_dir.rglob("*") if path.is_file()]
    quotes = [e["content"] for e in contract["anchorExcerpts"]]
    quotes += [v["response"] for v in contract["voice"]["voiceExamples"]]
    assert contract["anchorExcerpts"] and quotes
    for quote in quotes:
        assert any(quote in text for text in files), quote
    assert not Persona.objects.exists()


def test_it_prints_the_contract_to_stdout(builder_api, corpus_dir):
    stdout, stderr = io.StringIO(), io.StringIO()

    call_command("buildpersona", "--name", "Ada Essayist", "--corpus", str(corpus_dir), stdout=stdout, stderr=stderr)

    assert json.loads(stdout.getvalue())["personaId"] == "ada-essayist"
    assert "all verbatim from the corpus" in stderr.getvalue()


def test_save_stores_the_persona_with_its_corpus_in_a_deck(builder_api, corpus_dir):
    Deck.objects.create(slug="mine", name="Mine")

    call_command(
        "buildpersona", "--name", "Ada Essayist", "--corpus", str(corpus_dir), "--deck", "mine", "--save",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip

    persona = Persona.objects.get(persona_id="ada-essayist")
    assert persona.decks.get().slug == "mine"
    assert CorpusDocument.objects.filter(persona=persona).count() == 4


def test_a_missing_corpus_is_a_clear_error(builder_api, tmp_path):
    with pytest.raises(CommandError, match="nowhere: no such file or folder"):
        call_command("buildpersona", "--name", "Ada", "--corpus", str(tmp_path / "nowhere"))


def test_a_corrupt_file_is_named_and_nothing_is_built(builder_api, corpus_dir):
    (corpus_dir / "talk.pdf").write_bytes(b"%PDF-1.4 not really")

    with pytest.raises(CommandError, match="talk.pdf: not a PDF Faultline can read"):
        call_command("buildpersona", "--name", "Ada", "--corpus", str(corpus_dir), "--save")

    assert not Persona.objects.exists() and builder_api.requests == []


def test_the_command_exits_non_zero_on_error(tmp_path):
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "buildpersona", "--name", "Ada", "--corpus", str(tmp_path / "nowhere")],
        capture_output=True,
        text=True,
    )

    assert result.returncode != 0
    assert "no such file or folder" in result.stderr


def test_with_batch_the_draft_goes_through_one_message_batch_at_half_price(builder_api, corpus_dir, settings):
    settings.FAULTLINE_BATCH_POLL_SECONDS = 0.01
    stdout = io.StringIO()

    call_command("buildpersona", "--name", "Ada Essayist", "--corpus", str(corpus_dir), "--batch", stdout=stdout)

    contract = json.loads(stdout.getvalue())
    PersonaContract.model_validate(contract)
    assert contract["anchorExcerpts"]
    assert len(builder_api.batched) == 1 and len(builder_api.requests) == 1  # answered in the batch, no direct call
    (drafted,) = ModelCall.objects.filter(phase="persona_build", role="synthesis")
    assert drafted.persona == "ada-essayist" and not drafted.error
    assert drafted.cost_usd == estimate_cost(
        model=drafted.model, input_tokens=drafted.input_tokens, output_tokens=drafted.output_tokens, batched=True
    )
