"""Building a persona from a corpus in the browser, and replacing a persona's corpus.

    build = persona_build_start(owner=user, name="Ada", uploads=[("essays.zip", b"...")])
    # a worker: persona_build_draft(build_id=build.pk)  -> READY (or FAILED)
    persona_build_save(build=build, user=user, edited=form_instance)  # checks, then SAVING
    # a worker: persona_build_store(build_id=build.pk)  -> SAVED, build.persona

    build = persona_build_start(..., batched=True)   # half price: the drafting call waits in a batch
    # a worker: persona_build_draft sends it; persona_build_look, queued every
    # FAULTLINE_BATCH_POLL_SECONDS, reads its answer -> READY (or FAILED); past
    # FAULTLINE_BATCH_MAX_WAIT_SECONDS it is canceled and drafted directly, at full price

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
import time

from celery import current_app
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from pydantic import ValidationError as PydanticValidationError

from gateways.llm.batches import BatchCall, batch_cancel, batch_collect, batch_send, batching_available, extract_direct
from gateways.llm.types import CallTag
from gateways.untrusted import UntrustedRefused, untrusted_read
from personas.contracts import PersonaContract, contract_error_messages
from personas.corpus.builder import (
    BuildError,
    PersonaDraft,
    draft_from_proposal,
    drafting_call,
    proposal_made_directly,
)
from personas.corpus.sources import CorpusError, corpus_uploads_check
from personas.corpus.store import PreparedCorpus, corpus_embed, corpus_from_texts, corpus_store
from personas.models import CorpusUpload, Persona, PersonaBuild, batch_look_grace
from personas.selectors import visible_to
from personas.services.drafts import save_persona_draft
from personas.services.studio import check_owner, unique_slug

DRAFT_TASK = "personas.draft_persona_build"
LOOK_TASK = "personas.look_at_persona_build_batch"
CANCEL_TASK = "personas.cancel_persona_build_batch"
STORE_TASK = "personas.store_persona_build"
CORPUS_TASK = "personas.store_corpus_upload"
# Each draft is a model call: a user waits for some to finish before starting more.
MAX_DRAFTING_PER_USER = 3


def persona_build_start(*, owner, name: str, uploads: list[tuple[str, bytes]], batched: bool = False) -> PersonaBuild:
    """Check the upload's names, kinds and sizes (CorpusError naming each bad one: nothing is
    kept) and queue the build: a worker reads the files, then drafts. Returns the build to watch.
    ``batched``: draft at half price through the Message Batches API, when the provider has one
    (otherwise the draft is made directly, as without it)."""
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
        build = PersonaBuild.objects.create(
            owner=owner, name=name, files=_files_pack(uploads), batched=batched and batching_available()
        )
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
    """The worker's part: the model drafts the contract, retrieval picks the verbatim quotes. A
    batched build sends the drafting call as a Message Batch and lets go: persona_build_look reads
    the answer later."""
    build = PersonaBuild.objects.filter(pk=build_id, status=PersonaBuild.Status.DRAFTING).first()
    if build is None:
        return  # deleted, or a redelivery of a build already drafted
    if build.batch_id:
        _look_later(build)  # a redelivery of a build whose batch is sent: never send it twice
        return
    if build.files:
        try:
            build.corpus = _uploaded_corpus(build.files).to_dict()
        except CorpusError as exc:
            build.status, build.errors, build.files = PersonaBuild.Status.FAILED, exc.errors, []
            build.save(update_fields=["status", "errors", "files", "updated_at"])
            return
        build.files = []
        build.save(update_fields=["corpus", "files", "updated_at"])
    corpus = PreparedCorpus.from_dict(build.corpus)
    # Retrieval picks the quotes by meaning when the chunks have vectors (by word overlap if the
    # embedder fails: the draft's notes say so). The vectors are kept with the draft, so saving
    # stores them as they are and embeds only what has none (all of it, if this call failed).
    persona_id = _persona_id(build)
    corpus_embed(corpus, tag=CallTag(persona=persona_id, phase="corpus"))
    try:
        call = drafting_call(name=build.name, corpus=corpus, persona_id=persona_id)
    except BuildError as exc:
        _failed(build, exc)
        return
    if build.batched and (batch_id := batch_send([call], what=_what(build))):
        now = timezone.now()
        build.batch_id, build.batch_sent_at, build.batch_looked_at = batch_id, now, now
        build.corpus = corpus.to_dict()  # with its vectors, for the look that reads the answer
        build.save(update_fields=["batch_id", "batch_sent_at", "batch_looked_at", "corpus", "updated_at"])
        _look_later(build)
        return
    # Not batched (or the batch could not be sent: the owner gets the draft at full price).
    try:
        proposal = proposal_made_directly(call, name=build.name)
    except BuildError as exc:
        _failed(build, exc)
        return
    _drafted(build, corpus, call, proposal)


def persona_build_look(*, build_id: int) -> None:
    """A worker's look at a build waiting on its Message Batch: the draft once the batch has
    answered (READY, or FAILED saying why); else the look is queued again. Past
    FAULTLINE_BATCH_MAX_WAIT_SECONDS the batch is canceled, and what it did not answer is drafted
    directly. The row is locked while a look reads the answer, so two looks (a queued one and a
    sweep's) never read it twice: the ledger records the call once."""
    with transaction.atomic():
        build = (
            PersonaBuild.objects.select_for_update(skip_locked=True)
            .filter(pk=build_id, status=PersonaBuild.Status.DRAFTING)
            .exclude(batch_id="")
            .first()
        )
        if build is None:
            return  # drafted, discarded, or another look has it
        now = timezone.now()
        corpus = PreparedCorpus.from_dict(build.corpus)
        try:
            call = drafting_call(name=build.name, corpus=corpus, persona_id=_persona_id(build))
        except BuildError as exc:
            _failed(build, exc)
            return
        # The ledger's latency runs from the batch's submission, on time.monotonic()'s clock.
        submitted = time.monotonic() - (now - build.batch_sent_at).total_seconds()
        results = batch_collect(build.batch_id, [call], submitted=submitted, what=_what(build))
        if results is None:
            results = _past_the_wait(build, call, now)
        if results is None:
            build.batch_looked_at = now
            build.save(update_fields=["batch_looked_at", "batch_canceled_at", "updated_at"])
            transaction.on_commit(lambda: _look_later(build))
            return
        _drafted(build, corpus, call, results[0])


# A canceled batch normally ends within seconds; one that has not after this long is drafted
# directly all the same (should it still answer, that answer is billed and not used).
CANCELED_BATCH_GRACE_SECONDS = 600


def _past_the_wait(build: PersonaBuild, call: BatchCall, now) -> list | None:
    """A batch waiting past FAULTLINE_BATCH_MAX_WAIT_SECONDS is canceled (its answer, if it came
    meanwhile, is still read at the next look); one canceled long ago and still not ended is
    drafted directly. None: look again."""
    if build.batch_canceled_at is None:
        if (now - build.batch_sent_at).total_seconds() > settings.FAULTLINE_BATCH_MAX_WAIT_SECONDS:
            batch_cancel(build.batch_id, what=_what(build))
            build.batch_canceled_at = now
        return None
    if (now - build.batch_canceled_at).total_seconds() > CANCELED_BATCH_GRACE_SECONDS:
        return extract_direct([call], what=_what(build))
    return None


def persona_builds_look_again() -> list[int]:
    """Queue a look at every build waiting on a batch that nobody has looked at for longer than
    the grace (its worker died, or Redis lost the queued look): run by every worker's recovery
    sweep. The look's time is moved first, so two workers' sweeps queue one look. Returns the
    builds' ids."""
    overdue = PersonaBuild.objects.filter(
        status=PersonaBuild.Status.DRAFTING, batch_looked_at__lt=timezone.now() - batch_look_grace()
    ).exclude(batch_id="")
    queued = []
    for build in overdue.only("pk", "batch_looked_at"):
        moved = PersonaBuild.objects.filter(pk=build.pk, batch_looked_at=build.batch_looked_at).update(
            batch_looked_at=timezone.now()
        )
        if moved:
            current_app.send_task(LOOK_TASK, args=[build.pk])
            queued.append(build.pk)
    return queued


def _look_later(build: PersonaBuild) -> None:
    current_app.send_task(LOOK_TASK, args=[build.pk], countdown=settings.FAULTLINE_BATCH_POLL_SECONDS)


def _what(build: PersonaBuild) -> str:
    return f"Drafting {build.name}"


def _persona_id(build: PersonaBuild) -> str:
    return unique_slug(Persona, field="persona_id", base=build.name, among=visible_to(build.owner))


def _failed(build: PersonaBuild, exc: BuildError) -> None:
    build.status, build.errors = PersonaBuild.Status.FAILED, exc.errors
    build.save(update_fields=["status", "errors", "updated_at"])


def _drafted(build: PersonaBuild, corpus: PreparedCorpus, call: BatchCall, proposal) -> None:
    """The draft made of the model's answer waits for review (READY); FAILED, saying why."""
    try:
        draft = draft_from_proposal(proposal, name=build.name, corpus=corpus, tag=call.tag)
    except BuildError as exc:
        _failed(build, exc)
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
    """Throw away a draft (or a failed build) and the corpus it holds; a saved persona stays. A
    batch still waiting for it is canceled by a worker (no model API call from a web request)."""
    if build.owner_id != user.pk:
        raise PermissionDenied("Not your build.")
    with transaction.atomic():
        if build.waits_on_batch:
            batch_id = build.batch_id
            transaction.on_commit(lambda: current_app.send_task(CANCEL_TASK, args=[batch_id]))
        build.delete()


def persona_build_batch_cancel(*, batch_id: str) -> None:
    """The worker's part of discarding a build whose batch still waits: the batch is canceled, so
    nothing more of it is billed."""
    batch_cancel(batch_id, what="A discarded draft")


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
