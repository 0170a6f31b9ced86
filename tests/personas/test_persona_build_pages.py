"""Building a persona from a corpus in the browser's pages: upload, the worker drafts (run here
directly), review and edit, save. The model is the real SDK against the fake Messages API, whose
builder makes up a quote that must never reach the saved persona."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from devtools.scripted_debate import MADE_UP_QUOTE, DebateScript
from gateways.llm.models import ModelCall
from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.models import Persona, PersonaBuild
from personas.tasks import draft_persona_build, store_persona_build

pytestmark = pytest.mark.django_db

ESSAY = (
    "Every generation believes its currency is different from the last one that failed.\n\n"
    "Savers who kept gold through the seventies slept better than those who trusted the bond market.\n\n"
    "A central bank is a promise, and promises are kept only while keeping them is cheap."
)
MEMO = "The ledger never lies, but the people who read it often do.\n\nInflation is a tax nobody voted for."


@pytest.fixture
def builder_api(fake_anthropic):
    fake_anthropic.responder = DebateScript().respond
    return fake_anthropic


def _zip(**files) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def _start(alice, **extra):
    data = {
        "name": "Ada Ledger",
        "files": [
            SimpleUploadedFile("essay.md", ESSAY.encode()),
            SimpleUploadedFile("memos.zip", _zip(**{"memo.txt": MEMO})),
        ],
    }
    data.update(extra)
    return alice.post("/personas/build/", data)


def test_upload_queues_a_draft_and_shows_a_spinner(alice, user, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr("personas.services.builds.current_app.send_task", lambda name, args: sent.append((name, args)))

    with django_capture_on_commit_callbacks(execute=True):
        response = _start(alice)

    build = PersonaBuild.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == f"/personas/build/{build.pk}/"
    assert sent == [("personas.draft_persona_build", [build.pk])]
    # The request only keeps the files: the worker reads them.
    assert [file["name"] for file in build.files] == ["essay.md", "memos.zip"] and build.corpus == {}
    page = alice.get(f"/personas/build/{build.pk}/").content.decode()
    assert 'class="spinner"' in page and f'hx-get="/personas/build/{build.pk}/status/"' in page
    assert "Reading the 2 uploaded files" in page
    assert not Persona.objects.exists()


def test_a_draft_is_reviewed_edited_and_saved_with_its_corpus(alice, user, builder_api):
    build = PersonaBuild.objects.get(pk=_start(alice)["Location"].split("/")[-2])
    draft_persona_build(build.pk)
    build.refresh_from_db()
    assert build.status == "ready"
    assert alice.get(f"/personas/build/{build.pk}/status/")["HX-Refresh"] == "true"

    page = alice.get(f"/personas/build/{build.pk}/").content.decode()
    excerpts = build.draft["contract"]["anchorExcerpts"]
    assert excerpts and MADE_UP_QUOTE not in page
    assert "Every generation believes its currency is different from the last one that failed." in page
    assert "A sceptical essayist" in page  # the contract form, prefilled

    form = {
        "name": "Ada Ledger",
        "tagline": "Reads the ledger, not the forecast.",
        "personality": "A sceptical essayist who writes about money, institutions and trust.",
        "bias": "Distrusts every central authority, even where it has worked.",
        "stakes": "A reputation built on calling the last crisis early.",
        "epistemology": "Trusts long price histories and ledgers over models and forecasts.",
        "time_horizon": "Decades; short-term moves are noise.",
        "flip_conditions": "A central bank keeping inflation low for a generation.",
        "evidence_policy": '{"acceptedSources": ["Ledgers"], "rejectedSources": ["Slides"], "weighting": "Records."}',
        "speech_patterns": "You open with a date and a price.",
        "vocabulary": "ledger",
        "forbidden_phrases": "It depends",
        "voice_examples": __import__("json").dumps(build.draft["contract"]["voice"]["voiceExamples"]),
    }
    response = alice.post(f"/personas/build/{build.pk}/", form)

    # the request checks it and hands it to a worker: nothing is stored before the worker runs
    assert response.status_code == 302 and response["Location"] == f"/personas/build/{build.pk}/"
    assert not Persona.objects.exists()
    saving = alice.get(f"/personas/build/{build.pk}/").content.decode()
    assert 'class="spinner"' in saving and "Saving “Ada Ledger”" in saving
    store_persona_build(build.pk)
    persona = Persona.objects.get(owner=user)
    assert alice.get(f"/personas/build/{build.pk}/status/")["HX-Refresh"] == "true"
    assert alice.get(f"/personas/build/{build.pk}/")["Location"] == f"/personas/{persona.pk}/"
    assert persona.tagline == "Reads the ledger, not the forecast."
    corpus = ESSAY + MEMO
    for excerpt in persona.anchor_excerpts.all():
        assert excerpt.content in ESSAY or excerpt.content in MEMO
    for example in persona.voice_examples:
        assert example["response"] in corpus
    assert MADE_UP_QUOTE not in str(persona.voice_examples)
    page = alice.get(f"/personas/{persona.pk}/").content.decode()
    assert "essay.md" in page and "memos.zip/memo.txt" in page
    assert CorpusDocument.objects.filter(persona=persona).count() == 2


def test_a_voice_example_edited_into_a_made_up_quote_is_refused(alice, user, builder_api):
    build = PersonaBuild.objects.get(pk=_start(alice)["Location"].split("/")[-2])
    draft_persona_build(build.pk)
    build.refresh_from_db()
    contract = build.draft["contract"]
    form = {
        "name": "Ada Ledger",
        "tagline": "x",
        "personality": contract["personality"],
        "bias": contract["bias"],
        "stakes": contract["stakes"],
        "epistemology": contract["epistemology"],
        "time_horizon": contract["timeHorizon"],
        "flip_conditions": contract["flipConditions"],
        "evidence_policy": __import__("json").dumps(contract["evidencePolicy"]),
        "speech_patterns": "",
        "vocabulary": "",
        "forbidden_phrases": "",
        "voice_examples": '[{"situation": "Asked.", "response": "Words they never wrote."}]',
    }

    response = alice.post(f"/personas/build/{build.pk}/", form)

    assert response.status_code == 200
    assert "Not found word for word in the corpus" in response.content.decode()
    assert not Persona.objects.exists()


def test_an_unreadable_file_is_named_and_nothing_is_stored(alice, builder_api):
    response = _start(alice, files=[SimpleUploadedFile("scan.pdf", b"%PDF-1.7 not really a pdf")])
    build = PersonaBuild.objects.get()
    draft_persona_build(build.pk)

    build.refresh_from_db()
    assert (build.status, build.files, build.corpus) == ("failed", [], {})
    assert build.errors[0].startswith("scan.pdf: not a PDF Faultline can read")
    page = alice.get(response["Location"]).content.decode()
    assert "scan.pdf: not a PDF Faultline can read" in page and "nothing was stored" in page
    assert not Persona.objects.exists() and not ModelCall.objects.exists()


def test_a_file_of_another_kind_is_named_on_the_form(alice):
    response = _start(alice, files=[SimpleUploadedFile("slides.pptx", b"PK...")])

    assert response.status_code == 200
    assert "slides.pptx: not a file Faultline can read" in response.content.decode()
    assert not PersonaBuild.objects.exists()


def test_a_build_is_its_owners_only(client, other_user, alice, builder_api):
    build = PersonaBuild.objects.get(pk=_start(alice)["Location"].split("/")[-2])
    client.force_login(other_user)

    assert client.get(f"/personas/build/{build.pk}/").status_code == 404
    assert client.get(f"/personas/build/{build.pk}/status/").status_code == 404


def test_a_build_drafting_for_too_long_says_so(alice, user):
    from datetime import timedelta

    from django.utils import timezone

    build = PersonaBuild.objects.create(owner=user, name="Slow", corpus={"documents": []})
    assert 'id="build-stale"' not in alice.get(f"/personas/build/{build.pk}/").content.decode()
    PersonaBuild.objects.filter(pk=build.pk).update(created_at=timezone.now() - timedelta(minutes=6))

    status = alice.get(f"/personas/build/{build.pk}/status/").content.decode()

    assert 'id="build-stale"' in status and 'href="/personas/build/"' in status


def test_open_builds_are_listed_and_can_be_discarded(alice, user, other_user):
    mine = PersonaBuild.objects.create(owner=user, name="Half Done", status="ready", draft={})
    theirs = PersonaBuild.objects.create(owner=other_user, name="Not Yours", corpus={"documents": []})

    page = alice.get("/personas/").content.decode()
    assert "Half Done" in page and "Not Yours" not in page

    assert alice.post(f"/personas/build/{theirs.pk}/discard/").status_code == 404
    alice.post(f"/personas/build/{mine.pk}/discard/")
    assert list(PersonaBuild.objects.all()) == [theirs]


def test_a_user_drafts_at_most_three_at_once(alice, user):
    for _ in range(3):
        PersonaBuild.objects.create(owner=user, name="Drafting", corpus={"documents": []})

    response = _start(alice)

    assert "You have 3 personas drafting already" in response.content.decode()
    assert PersonaBuild.objects.count() == 3


def test_a_draft_the_worker_cannot_store_goes_back_for_review(alice, user, builder_api):
    build = PersonaBuild.objects.get(pk=_start(alice)["Location"].split("/")[-2])
    draft_persona_build(build.pk)
    build.refresh_from_db()
    taken = build.draft["contract"]["personaId"]
    PersonaBuild.objects.filter(pk=build.pk).update(status="saving")
    Persona.objects.create(persona_id=taken, name="Squatter", version="1")  # taken meanwhile

    store_persona_build(build.pk)

    build.refresh_from_db()
    assert build.status == "ready" and f"personaId: '{taken}' is already taken" in build.errors[0]
    assert "is already taken" in alice.get(f"/personas/build/{build.pk}/").content.decode()


def test_the_corpus_is_embedded_once_for_the_draft_and_stored_with_those_vectors(alice, user, builder_api):
    corpus_embeddings = ModelCall.objects.filter(role="embedding", phase="corpus")  # not the quote queries
    build = PersonaBuild.objects.get(pk=_start(alice)["Location"].split("/")[-2])
    assert not corpus_embeddings.exists()  # keeping the upload embeds nothing

    draft_persona_build(build.pk)
    assert corpus_embeddings.filter(error="").count() == 1
    build.refresh_from_db()
    contract = build.draft["contract"]
    response = alice.post(
        f"/personas/build/{build.pk}/",
        {
            "name": "Ada Ledger",
            "tagline": "Reads the ledger.",
            "personality": contract["personality"],
            "bias": contract["bias"],
            "stakes": contract["stakes"],
            "epistemology": contract["epistemology"],
            "time_horizon": contract["timeHorizon"],
            "flip_conditions": contract["flipConditions"],
            "evidence_policy": json.dumps(contract["evidencePolicy"]),
            "speech_patterns": "",
            "vocabulary": "",
            "forbidden_phrases": "",
            "voice_examples": json.dumps(contract["voice"]["voiceExamples"]),
        },
    )
    assert response.status_code == 302
    store_persona_build(build.pk)

    assert corpus_embeddings.count() == 1  # the draft's vectors were stored, not made again
    chunks = CorpusChunk.objects.filter(persona__owner=user)
    assert chunks.exists() and not chunks.filter(embedding__isnull=True).exists()
    assert set(chunks.values_list("embedding_model", flat=True)) != {""}
