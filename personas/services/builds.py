"""Building a persona from a corpus in the browser, and replacing a persona's corpus.

    build = persona_build_start(owner=user, name="Ada", uploads=[("essays.zip", b"...")])
    # a worker: persona_build_draft(build_id=build.pk)  -> READY (or FAILED)
    persona_build_save(build=build, user=user, edited=form_instance)  # checks, then SAVING
    # a worker: persona_build_store(build_id=build.pk)  -> SAVED, build.persona

    upload = persona_corpus_upload_start(persona=persona, user=user, uploads=[...])
    # a worker: persona_corpus_upload_store(upload_id=upload.pk)  -> STORED (or FAILED)

The request checks only the uploads' names, kinds and sizes (a bad one is named on the form at
once, and nothing is kept). A Celery worker reads the files, in a child process with CPU, memory
and time limits (gateways/untrusted.py: a hostile PDF costs at most those, and a file past one
fails the build saying why), then does what is slow: the model call that drafts the contract
(tens of seconds with a real model) and embedding the corpus (minutes for a large one on the
offline embedder). The page shows a spinner and polls. The draft waits in its PersonaBuild
row for review; nothing is a persona until the owner saves it.
"""

from __future__ import annotations

import base64

from celery import current_app
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from pydantic import ValidationError as PydanticValidationError

from gateways.llm.types import CallTag
from gateways.untrusted import UntrustedRefused, untrusted_read
from personas.contracts import PersonaContract, contract_error_messages
from personas.corpus.builder import BuildError, PersonaDraft, draft_persona
from personas.corpus.sources import CorpusError, corpus_uploads_check
from personas.corpus.store import PreparedCorpus, corpus_embed, corpus_from_texts, corpus_store
from personas.models import CorpusUpload, Persona, PersonaBuild
from personas.selectors import visible_to
from personas.services.drafts import save_persona_draft
from personas.services.studio import check_owner, unique_slug

DRAFT_TASK = "personas.draft_persona_build"
STORE_TASK = "personas.store_persona_build"
CORPUS_TASK = "personas.store_corpus_upload"
# Each draft is a model call: a user waits for some to finish before starting more.
MAX_DRAFTING_PER_USER = 3


def persona_build_start(*, owner, name: str, uploads: list[tuple[str, bytes]]) -> PersonaBuild:
    """Check the upload's names, kinds and sizes (CorpusError naming each bad one: nothing is
    kept) and queue the build: a worker reads the files, then drafts. Returns the build to watch."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the persona a name."})
    drafting = PersonaBuild.objects.filter(
        owner=owner, status=PersonaBuild.Status.DRAFTING, created_at__gt=timezone.now() - PersonaBuild.STALE_AFTER
    )
    if drafting.count() >= MAX_DRAFTING_PER_USER:
        raise ValidationError(f"You have {MAX_DRAFTING_PER_USER} personas drafting already; wait for one to finish.")
    corpus_uploads_check(uploads)
    with transaction.atomic():
        build = PersonaBuild.objects.create(owner=owner, name=name, files=_files_pack(uploads))
        transaction.on_commit(lambda: current_app.send_task(DRAFT_TASK, args=[build.pk]))
    return build


def _files_pack(uploads: list[tuple[str, bytes]]) -> list[dict]:
    return [{"name": name, "data": base64.b64encode(data).decode("ascii")} for name, data in uploads]


def _uploaded_corpus(files: list[dict]) -> PreparedCorpus:
    """The uploaded files read in a limited child process, then chunked (not embedded yet):
    CorpusError naming each bad file, or the limit the upload hit."""
    uploads = [(file["name"], base64.b64decode(file["data"])) for file in files]
    try:
        texts = untrusted_read("personas.corpus.sources:corpus_uploads_read", expected=(CorpusError,), uploads=uploads)
    except UntrustedRefused as exc:
        raise CorpusError(exc.lines_for(", ".join(name for name, _ in uploads))) from exc
    return corpus_from_texts(texts, embed=False)


def persona_build_draft(*, build_id: int) -> None:
    """The worker's part: the model drafts the contract, retrieval picks the verbatim quotes."""
    build = PersonaBuild.objects.filter(pk=build_id, status=PersonaBuild.Status.DRAFTING).first()
    if build is None:
        return  # deleted, or a redelivery of a build already drafted
    if build.files:
        try:
            build.corpus = _uploaded_corpus(build.files).to_dict()
        except CorpusError as exc:
            build.status, build.errors, build.files = PersonaBuild.Status.FAILED, exc.errors, []
            build.save(update_fields=["status", "errors", "files", "updated_at"])
            return
        build.files = []
        build.save(update_fields=["corpus", "files", "updated_at"])
    persona_id = unique_slug(Persona, field="persona_id", base=build.name, among=visible_to(build.owner))
    corpus = PreparedCorpus.from_dict(build.corpus)
    # Retrieval picks the quotes by meaning when the chunks have vectors (by word overlap if the
    # embedder fails: the draft's notes say so). The vectors are kept with the draft, so saving
    # stores them as they are and embeds only what has none (all of it, if this call failed).
    corpus_embed(corpus, tag=CallTag(persona=persona_id, phase="corpus"))
    try:
        draft = draft_persona(name=build.name, corpus=corpus, persona_id=persona_id)
    except BuildError as exc:
        build.status, build.errors = PersonaBuild.Status.FAILED, exc.errors
        build.save(update_fields=["status", "errors", "updated_at"])
        return
    # The draft carries the corpus from here on.
    build.status, build.draft, build.corpus = PersonaBuild.Status.READY, draft.to_dict(), {}
    build.save(update_fields=["status", "draft", "corpus", "updated_at"])


def build_draft(build: PersonaBuild) -> PersonaDraft:
    return PersonaDraft.from_dict(build.draft)


# The contract's camelCase keys for the fields a reviewer edits (the form's model fields).
_CONTRACT_KEYS = {
    "name": "name",
    "tagline": "tagline",
    "personality": "personality",
    "bias": "bias",
    "stakes": "stakes",
    "epistemology": "epistemology",
    "time_horizon": "timeHorizon",
    "flip_conditions": "flipConditions",
    "evidence_policy": "evidencePolicy",
}
_VOICE_KEYS = {
    "speech_patterns": "speechPatterns",
    "vocabulary": "vocabulary",
    "forbidden_phrases": "forbiddenPhrases",
    "voice_examples": "voiceExamples",
}


def draft_as_persona(contract: dict) -> Persona:
    """An unsaved Persona holding the draft's contract and voice, for the review form."""
    voice = contract.get("voice", {})
    return Persona(
        persona_id=contract["personaId"],
        version=contract["version"],
        **{field: contract.get(key, "") for field, key in _CONTRACT_KEYS.items()},
        **{field: voice.get(key, []) for field, key in _VOICE_KEYS.items()},
    )


def contract_with_edits(contract: dict, edited: Persona) -> dict:
    """The draft contract with the reviewer's edits of its fields and voice; the personaId,
    version and anchor excerpts (verbatim quotes) stay as drafted."""
    updated = {**contract, **{key: getattr(edited, field) for field, key in _CONTRACT_KEYS.items()}}
    updated["voice"] = {**contract.get("voice", {}), **{key: getattr(edited, f) for f, key in _VOICE_KEYS.items()}}
    return updated


def persona_build_save(*, build: PersonaBuild, user, edited: Persona) -> None:
    """Check the reviewed draft (BuildError if the contract is not valid or a voice example is no
    longer a verbatim corpus quote) and hand it to a worker to store with its corpus."""
    if build.owner_id != user.pk:
        raise PermissionDenied("Not your build.")
    if build.status != PersonaBuild.Status.READY:
        raise BuildError("This draft is not ready to save.")
    draft = build_draft(build)
    draft.contract = contract_with_edits(draft.contract, edited)
    try:
        PersonaContract.model_validate(draft.contract)
    except PydanticValidationError as exc:
        raise BuildError(contract_error_messages(exc)) from exc
    if unverified := draft.unverified_quotes():
        raise BuildError(
            [f"Not found word for word in the corpus: {quote[:80]!r}" for quote in unverified]
            + ["Anchor excerpts and voice examples must be quotes from the corpus."]
        )
    with transaction.atomic():
        build.status, build.draft, build.errors = PersonaBuild.Status.SAVING, draft.to_dict(), []
        build.save(update_fields=["status", "draft", "errors", "updated_at"])
        transaction.on_commit(lambda: current_app.send_task(STORE_TASK, args=[build.pk]))


def persona_build_store(*, build_id: int) -> None:
    """The worker's part of saving: embed the corpus and store the persona with it, in one go.
    A refusal (the personaId taken meanwhile...) puts the draft back for review, saying why."""
    build = PersonaBuild.objects.filter(pk=build_id, status=PersonaBuild.Status.SAVING).first()
    if build is None:
        return
    try:
        persona = save_persona_draft(build_draft(build), owner=build.owner)
    except BuildError as exc:
        build.status, build.errors = PersonaBuild.Status.READY, exc.errors
        build.save(update_fields=["status", "errors", "updated_at"])
        return
    build.status, build.persona, build.draft = PersonaBuild.Status.SAVED, persona, None
    build.save(update_fields=["status", "persona", "draft", "updated_at"])


def persona_build_discard(*, build: PersonaBuild, user) -> None:
    """Throw away a draft (or a failed build) and the corpus it holds; a saved persona stays."""
    if build.owner_id != user.pk:
        raise PermissionDenied("Not your build.")
    build.delete()


def persona_corpus_upload_start(*, persona: Persona, user, uploads: list[tuple[str, bytes]]) -> CorpusUpload:
    """Check the upload's names, kinds and sizes (CorpusError naming each bad one: nothing kept,
    the corpus as it was) and hand it to a worker to read, embed and store as the owner's
    persona's whole corpus (a file it cannot read fails the upload, saying why)."""
    check_owner(persona, user)
    corpus_uploads_check(uploads)
    with transaction.atomic():
        upload = CorpusUpload.objects.create(owner=user, persona=persona, files=_files_pack(uploads))
        transaction.on_commit(lambda: current_app.send_task(CORPUS_TASK, args=[upload.pk]))
    return upload


def persona_corpus_upload_store(*, upload_id: int) -> None:
    """The worker's part: replace the persona's corpus with the upload, in one transaction."""
    upload = CorpusUpload.objects.filter(pk=upload_id, status=CorpusUpload.Status.STORING).first()
    if upload is None:
        return
    try:
        corpus = _uploaded_corpus(upload.files) if upload.files else PreparedCorpus.from_dict(upload.corpus)
        summary = corpus_store(persona=upload.persona, corpus=corpus)
    except CorpusError as exc:
        upload.status, upload.report = CorpusUpload.Status.FAILED, exc.errors
    else:
        upload.status, upload.report = CorpusUpload.Status.STORED, summary.lines()
    upload.corpus, upload.files = {}, []
    upload.save(update_fields=["status", "report", "corpus", "files", "updated_at"])
