"""Building a persona from a corpus in the browser, and replacing a persona's corpus.

    build = persona_build_start(owner=user, name="Ada", uploads=[("essays.zip", b"...")])
    # a worker: persona_build_draft(build_id=build.pk)  -> build.status READY (or FAILED)
    persona = persona_build_save(build=build, user=user, edited=form_instance)

The upload is parsed in the request (fast, and its CorpusError is shown on the form at once);
the model call that drafts the contract runs on a Celery worker, because a real model takes tens
of seconds to write it and a web request should not hold a connection that long. The draft then
waits in its PersonaBuild row for review; nothing is a persona until the owner saves it.
"""

from __future__ import annotations

from celery import current_app
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from faultline.llm.types import CallTag
from personas.corpus.builder import BuildError, PersonaDraft, draft_persona, save_persona_draft
from personas.corpus.sources import corpus_files_from_uploads
from personas.corpus.store import CorpusSummary, PreparedCorpus, corpus_embed, corpus_prepare, replace_corpus
from personas.models import Persona, PersonaBuild
from personas.services.studio import check_owner, unique_slug

DRAFT_TASK = "personas.draft_persona_build"
# Each draft is a model call: a user waits for some to finish before starting more.
MAX_DRAFTING_PER_USER = 3


def persona_build_start(*, owner, name: str, uploads: list[tuple[str, bytes]]) -> PersonaBuild:
    """Read the upload (CorpusError, naming each bad file, if any is unreadable: nothing is kept)
    and queue the draft. Returns the build to watch."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the persona a name."})
    drafting = PersonaBuild.objects.filter(
        owner=owner, status=PersonaBuild.Status.DRAFTING, created_at__gt=timezone.now() - PersonaBuild.STALE_AFTER
    )
    if drafting.count() >= MAX_DRAFTING_PER_USER:
        raise ValidationError(f"You have {MAX_DRAFTING_PER_USER} personas drafting already; wait for one to finish.")
    corpus = corpus_prepare(corpus_files_from_uploads(uploads), embed=False)
    with transaction.atomic():
        build = PersonaBuild.objects.create(owner=owner, name=name, corpus=corpus.to_dict())
        transaction.on_commit(lambda: current_app.send_task(DRAFT_TASK, args=[build.pk]))
    return build


def persona_build_draft(*, build_id: int) -> None:
    """The worker's part: the model drafts the contract, retrieval picks the verbatim quotes."""
    build = PersonaBuild.objects.filter(pk=build_id, status=PersonaBuild.Status.DRAFTING).first()
    if build is None:
        return  # deleted, or a redelivery of a build already drafted
    persona_id = unique_slug(Persona, field="persona_id", base=build.name)
    corpus = PreparedCorpus.from_dict(build.corpus)
    # Retrieval picks the quotes by meaning when the chunks have vectors (by word overlap if the
    # embedder fails: the draft's notes say so). The vectors are not kept with the draft; saving
    # embeds the corpus again, the price of keeping a draft as plain JSON.
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


def persona_build_save(*, build: PersonaBuild, user, edited: Persona) -> Persona:
    """Store the reviewed draft as the owner's private persona with its corpus (BuildError if a
    voice example is no longer a verbatim corpus quote, or the contract is not valid)."""
    if build.owner_id != user.pk:
        raise PermissionDenied("Not your build.")
    if build.status != PersonaBuild.Status.READY:
        raise BuildError("This draft is not ready to save.")
    draft = build_draft(build)
    draft.contract = contract_with_edits(draft.contract, edited)
    persona = save_persona_draft(draft, owner=user)
    build.status, build.persona, build.draft = PersonaBuild.Status.SAVED, persona, None
    build.save(update_fields=["status", "persona", "draft", "updated_at"])
    return persona


def persona_build_discard(*, build: PersonaBuild, user) -> None:
    """Throw away a draft (or a failed build) and the corpus it holds; a saved persona stays."""
    if build.owner_id != user.pk:
        raise PermissionDenied("Not your build.")
    build.delete()


def persona_corpus_replace(*, persona: Persona, user, uploads: list[tuple[str, bytes]]) -> CorpusSummary:
    """Make ``uploads`` the owner's persona's whole corpus (CorpusError names a bad file and
    leaves the previous corpus as it was)."""
    check_owner(persona, user)
    return replace_corpus(persona=persona, files=corpus_files_from_uploads(uploads))
