"""Drafting a persona from its corpus: the model writes the contract, retrieval picks the quotes.

    corpus = corpus_prepare(corpus_files_at("essays/"))
    draft = draft_persona(name="Ada Example", corpus=corpus)
    draft.contract               # the seed contract JSON object (anchorExcerpts included)
    persona = save_persona_draft(draft)   # personas.services.drafts: after review and editing

The model (gateway role SYNTHESIS, structured output parsed against ``DraftProposal``, one repair
retry) drafts the contract fields and the voice profile. It never gets to put words in the
persona's mouth: the quotes it proposes are kept only when they are exact substrings of the
corpus, and the anchor excerpts and voice examples are filled from passages retrieval picks for
each theme and contract field (embedding similarity; word overlap when the corpus has no
vectors). Every quote is a slice of a document's text, so it is verbatim by construction, and
``PersonaDraft.unverified_quotes`` checks it again before saving.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.text import slugify
from pydantic import BaseModel, Field, ValidationError

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm import gateway
from gateways.llm.batches import BatchCall, extract_batch
from gateways.llm.prompt_lines import item_line
from gateways.llm.types import CallTag, ModelError, Prompt, Role
from gateways.words import STOP_WORDS
from personas.contracts import PersonaContract, contract_error_messages
from personas.corpus.chunking import Span, sentences
from personas.corpus.prompts import BUILDER_SYSTEM, BUILDER_USER
from personas.corpus.store import PreparedCorpus

SAMPLE_CHARS = 24_000  # of corpus text shown to the model
ANCHOR_COUNT = 5
VOICE_EXAMPLE_COUNT = 3
QUOTE_MIN_CHARS = 40
QUOTE_MAX_CHARS = 420


class BuildError(Exception):
    """The persona could not be drafted or saved; the message is fit to show the user."""

    def __init__(self, errors: list[str] | str):
        errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(errors))
        self.errors = errors


# ── what the model is asked for ─────────────────────────────────────────────────────────────

_Line = Field(min_length=1, max_length=1200)


class _Policy(BaseModel):
    accepted_sources: list[str] = Field(min_length=1, max_length=8)
    rejected_sources: list[str] = Field(min_length=1, max_length=8)
    weighting: str = _Line


class _VoiceMoment(BaseModel):
    situation: str = Field(min_length=1, max_length=400)
    quote: str = Field(max_length=1200)


class DraftProposal(BaseModel):
    tagline: str = Field(max_length=200)
    personality: str = _Line
    bias: str = _Line
    stakes: str = _Line
    epistemology: str = _Line
    time_horizon: str = _Line
    flip_conditions: str = _Line
    evidence_policy: _Policy
    speech_patterns: list[str] = Field(max_length=10)
    vocabulary: list[str] = Field(max_length=30)
    forbidden_phrases: list[str] = Field(max_length=20)
    themes: list[str] = Field(max_length=10)
    anchor_quotes: list[str] = Field(max_length=10)
    voice_moments: list[_VoiceMoment] = Field(max_length=6)


# ── the draft ───────────────────────────────────────────────────────────────────────────────


@dataclass
class PersonaDraft:
    """A drafted persona awaiting review: ``contract`` may be edited (it is validated again when
    saved), ``corpus`` is what it was built from and is stored with it."""

    contract: dict
    corpus: PreparedCorpus
    notes: list[str] = field(default_factory=list)  # for the reviewer: dropped quotes, fallbacks
    dropped_quotes: list[str] = field(default_factory=list)  # model quotes not found in the corpus

    def contract_json(self) -> str:
        return json.dumps(self.contract, indent=2, ensure_ascii=False) + "\n"

    def quotes(self) -> list[str]:
        excerpts = [excerpt.get("content", "") for excerpt in self.contract.get("anchorExcerpts", [])]
        examples = [example.get("response", "") for example in self.contract.get("voice", {}).get("voiceExamples", [])]
        return excerpts + examples

    def unverified_quotes(self) -> list[str]:
        """Anchor excerpts and voice-example responses not found verbatim in the corpus."""
        return [quote for quote in self.quotes() if not self.corpus.contains(quote)]

    def to_dict(self) -> dict:
        """JSON-safe (vectors packed): for a review page to keep between requests."""
        return {
            "contract": self.contract,
            "corpus": self.corpus.to_dict(),
            "notes": self.notes,
            "droppedQuotes": self.dropped_quotes,
        }

    @classmethod
    def from_dict(cls, data: dict) -> PersonaDraft:
        return cls(
            contract=data["contract"],
            corpus=PreparedCorpus.from_dict(data["corpus"]),
            notes=list(data.get("notes", [])),
            dropped_quotes=list(data.get("droppedQuotes", [])),
        )


# ── drafting ────────────────────────────────────────────────────────────────────────────────


def draft_persona(
    *,
    name: str,
    corpus: PreparedCorpus,
    persona_id: str | None = None,
    tag: CallTag = CallTag(),
    batched: bool = False,
) -> PersonaDraft:
    """Draft a persona named ``name`` from ``corpus`` (see the module docstring). Raises
    BuildError when the model fails or its output does not fit the schema after one repair.
    ``batched``: the drafting call goes through the Message Batches API at half price, when the
    provider has one (for a build nobody waits on: it may take up to FAULTLINE_BATCH_MAX_WAIT_SECONDS)."""
    call = drafting_call(name=name, corpus=corpus, persona_id=persona_id, tag=tag)
    if batched:
        (proposal,) = extract_batch([call], what=f"Drafting {name}")
    else:
        proposal = proposal_made_directly(call, name=name)
    return draft_from_proposal(proposal, name=name, corpus=corpus, tag=call.tag)


def proposal_made_directly(call: BatchCall, *, name: str) -> DraftProposal:
    """The model's answer to the drafting ``call``, made directly; BuildError saying why it failed."""
    try:
        return gateway.extract(role=call.role, prompt=call.prompt, schema=call.schema, tag=call.tag)
    except ModelError as exc:
        raise BuildError(f"The model could not draft {name.strip()}: {exc}") from exc


def drafting_call(
    *, name: str, corpus: PreparedCorpus, persona_id: str | None = None, tag: CallTag = CallTag()
) -> BatchCall:
    """The model call that drafts ``name``'s contract from ``corpus``: the same call, byte for
    byte, each time it is built from the same corpus (a build waiting on a Message Batch builds it
    again to read the answer). BuildError for a build with no name or no corpus."""
    name = name.strip()
    if not name:
        raise BuildError("A persona needs a name.")
    # A name with no ASCII letter or digit ("Σωκράτης") still gets a valid personaId.
    persona_id = persona_id or slugify(name)[:80] or f"persona-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
    if not corpus.documents:
        raise BuildError("The corpus is empty: there is nothing to build a persona from.")
    # The call is tagged with the personaId the draft gets (draft_from_proposal reads it there).
    tag = CallTag(debate_id=tag.debate_id, persona=persona_id, phase=tag.phase or "persona_build")
    prompt = Prompt(
        system_prefix=BUILDER_SYSTEM,
        messages=[{"role": "user", "content": BUILDER_USER.format(name=name, excerpts=_sample(corpus))}],
        max_tokens=4000,
        temperature=0.3,
    )
    return BatchCall(role=Role.SYNTHESIS, prompt=prompt, schema=DraftProposal, tag=tag)


def draft_from_proposal(
    proposal: DraftProposal | None, *, name: str, corpus: PreparedCorpus, tag: CallTag
) -> PersonaDraft:
    """The draft made of the model's ``proposal`` (None: the model could not answer, BuildError)
    and the quotes retrieval picks from ``corpus``; ``tag`` is the drafting call's."""
    if proposal is None:
        raise BuildError(f"The model could not draft {name.strip()} (the log says why).")
    name, persona_id = name.strip(), tag.persona
    picker = _QuotePicker(corpus, tag=tag)
    # Quotes the model made up (not in the corpus word for word) are dropped and reported.
    proposed = [*proposal.anchor_quotes, *(moment.quote for moment in proposal.voice_moments)]
    dropped = [quote for quote in proposed if quote.strip() and not corpus.contains(quote.strip())]

    anchors: list[tuple[str, str]] = []  # (quote, source)
    for quote in proposal.anchor_quotes:
        if len(anchors) < ANCHOR_COUNT and (kept := picker.verified(quote)):
            anchors.append(kept)
    themes = [theme for theme in proposal.themes if theme.strip()]
    queries = themes + [
        proposal.personality,
        proposal.epistemology,
        proposal.flip_conditions,
        proposal.stakes,
        proposal.bias,
        proposal.time_horizon,
    ]
    picker.prefetch(queries + [moment.situation for moment in proposal.voice_moments])
    for query in queries:
        if len(anchors) >= ANCHOR_COUNT:
            break
        if found := picker.best_for(query):
            anchors.append(found)

    examples: list[dict] = []
    moments = [moment for moment in proposal.voice_moments if moment.situation.strip()]
    for moment in moments:
        if len(examples) < VOICE_EXAMPLE_COUNT and (kept := picker.verified(moment.quote)):
            examples.append({"situation": moment.situation.strip(), "response": kept[0]})
    for moment in moments:
        if len(examples) >= VOICE_EXAMPLE_COUNT:
            break
        if any(example["situation"] == moment.situation.strip() for example in examples):
            continue
        if found := picker.best_for(moment.situation):
            examples.append({"situation": moment.situation.strip(), "response": found[0]})
    for theme in themes:
        if len(examples) >= VOICE_EXAMPLE_COUNT:
            break
        if found := picker.best_for(theme):
            examples.append({"situation": f"Asked about {theme.strip()}.", "response": found[0]})

    notes = [note for note in (corpus.note, picker.note) if note]
    if dropped:
        notes.append(f"Dropped {len(dropped)} quote(s) the model proposed that are not in the corpus word for word.")
    short = persona_id.split("-")[0][:12] or "q"
    contract = {
        "personaId": persona_id,
        "version": timezone.now().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "name": name,
        "tagline": proposal.tagline.strip(),
        "personality": proposal.personality.strip(),
        "bias": proposal.bias.strip(),
        "stakes": proposal.stakes.strip(),
        "epistemology": proposal.epistemology.strip(),
        "timeHorizon": proposal.time_horizon.strip(),
        "flipConditions": proposal.flip_conditions.strip(),
        "evidencePolicy": {
            "acceptedSources": _clean(proposal.evidence_policy.accepted_sources),
            "rejectedSources": _clean(proposal.evidence_policy.rejected_sources),
            "weighting": proposal.evidence_policy.weighting.strip(),
        },
        "anchorExcerpts": [
            {"id": f"{short}-{index:02d}", "content": quote, "source": source[-200:]}
            for index, (quote, source) in enumerate(anchors, start=1)
        ],
        "voice": {
            "speechPatterns": _clean(proposal.speech_patterns),
            "vocabulary": _clean(proposal.vocabulary),
            "forbiddenPhrases": _clean(proposal.forbidden_phrases),
            "voiceExamples": examples,
        },
    }
    draft = PersonaDraft(contract=contract, corpus=corpus, notes=notes, dropped_quotes=dropped)
    if unverified := draft.unverified_quotes():  # cannot happen: every quote is a slice
        raise BuildError([f"Not a verbatim corpus quote: {quote[:80]!r}" for quote in unverified])
    problems = contract_problems(contract)
    if problems:
        raise BuildError([f"The drafted contract is not valid: {problem}" for problem in problems])
    return draft


def _clean(items: list[str]) -> list[str]:
    return list(dict.fromkeys(item.strip() for item in items if item.strip()))


def contract_problems(contract: dict) -> list[str]:
    try:
        PersonaContract.model_validate(contract)
    except ValidationError as exc:
        return contract_error_messages(exc)
    return []


def _sample(corpus: PreparedCorpus, budget: int = SAMPLE_CHARS) -> str:
    """Chunks spread over the whole corpus: documents in turn, each read at evenly spaced points."""
    queues = []
    for document in corpus.documents:
        queues.append([(document, i) for i in _spread_order(len(document.spans))])
    picked, used = [], 0
    while any(queues) and used < budget:
        for queue in queues:
            if not queue:
                continue
            document, index = queue.pop(0)
            text = document.spans[index].of(document.text)
            if used + len(text) > budget and picked:
                queue.clear()
                continue
            picked.append((document, index, text[: budget - used]))
            used += len(text)
    picked.sort(key=lambda item: (corpus.documents.index(item[0]), item[1]))
    # Item lines (gateways/llm/prompt_lines.py): "[C1] (source) text", the text's further lines
    # indented, so every excerpt keeps its own line breaks (its quotes are copied verbatim).
    return "\n\n".join(
        item_line(f"C{number}", f"({document.source}) {text}") for number, (document, _, text) in enumerate(picked, 1)
    )


def _spread_order(count: int) -> list[int]:
    """0, then every other half, quarter, eighth...: a few chunks from each part of a document
    come before many from its opening."""
    order, seen, step = [], set(), max(count, 1)
    while len(order) < count:
        for index in range(0, count, step):
            if index not in seen:
                seen.add(index)
                order.append(index)
        step = max(1, step // 2)
    return order


# ── quotes ─────────────────────────────────────────────────────────────────────────────────

_WORD = re.compile(r"[a-z0-9’']+")


def _words(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS and len(word) > 2}


class _QuotePicker:
    """Picks verbatim passages: for each query the best window of sentences, from the best chunk
    not used yet (chunks already used come after, so a small corpus still gives enough quotes);
    never a window overlapping one already picked."""

    def __init__(self, corpus: PreparedCorpus, *, tag: CallTag):
        self.corpus = corpus
        self.tag = tag
        self.used_chunks: set[tuple[int, int]] = set()
        self.used_spans: dict[int, list[Span]] = {}
        self.chunks = [(d, c) for d, document in enumerate(corpus.documents) for c in range(len(document.spans))]
        self.vectors: dict[str, list[float]] = {}
        self.note = ""
        self.use_vectors = bool(corpus.embedding_model) and all(
            corpus.documents[d].vectors[c] is not None for d, c in self.chunks
        )
        if not self.use_vectors:
            self.note = "Quotes were chosen by word overlap (the corpus has no embeddings)."

    def prefetch(self, queries: list[str]) -> None:
        """Embed the queries in one call (``best_for`` would otherwise embed them one by one)."""
        wanted = list(dict.fromkeys(q.strip()[:2000] for q in queries if q.strip()))
        wanted = [query for query in wanted if query not in self.vectors]
        if not self.use_vectors or not wanted:
            return
        try:
            batch = embeddings.embed(wanted, purpose=Purpose.QUERY, tag=self.tag)
        except EmbeddingError as exc:
            self.use_vectors = False
            self.note = f"Embedding failed ({str(exc)[:120]}); quotes were chosen by word overlap."
            return
        self.vectors.update(zip(wanted, batch.vectors, strict=True))

    def _mark(self, d_index: int, span: Span) -> None:
        self.used_spans.setdefault(d_index, []).append(span)

    def _overlaps(self, d_index: int, span: Span) -> bool:
        return any(span.start < used.end and used.start < span.end for used in self.used_spans.get(d_index, []))

    def verified(self, quote: str) -> tuple[str, str] | None:
        """(quote, source) when ``quote`` is an exact substring of the corpus, of a quotable
        length, and not overlapping a quote already picked."""
        quote = quote.strip()
        if not (QUOTE_MIN_CHARS // 2 <= len(quote) <= QUOTE_MAX_CHARS * 2):
            return None
        for d_index, document in enumerate(self.corpus.documents):
            start = document.text.find(quote)
            while start != -1:
                span = Span(start, start + len(quote))
                if not self._overlaps(d_index, span):
                    self._mark(d_index, span)
                    return quote, document.source
                start = document.text.find(quote, start + 1)
        return None

    def best_for(self, query: str) -> tuple[str, str] | None:
        """The best passage for ``query`` as (quote, source), or None when nothing is left."""
        query = query.strip()
        if not query:
            return None
        for d_index, c_index in self._ranked(query):
            document = self.corpus.documents[d_index]
            window = self._best_window(d_index, document.spans[c_index], query)
            if window is not None:
                self.used_chunks.add((d_index, c_index))
                self._mark(d_index, window)
                return window.of(document.text), document.source
        return None

    def _ranked(self, query: str) -> list[tuple[int, int]]:
        score = self._scores(query)
        return sorted(self.chunks, key=lambda chunk: (chunk in self.used_chunks, -score[chunk], chunk))

    def _scores(self, query: str) -> dict[tuple[int, int], float]:
        self.prefetch([query])
        vector = self.vectors.get(query[:2000]) if self.use_vectors else None
        if vector is not None:
            return {
                (d, c): sum(a * b for a, b in zip(vector, self.corpus.documents[d].vectors[c], strict=True))
                for d, c in self.chunks
            }
        wanted = _words(query)
        score = {}
        for d, c in self.chunks:
            document = self.corpus.documents[d]
            have = _words(document.spans[c].of(document.text))
            score[(d, c)] = len(wanted & have) / math.sqrt(len(have) + 1)
        return score

    def _best_window(self, d_index: int, span: Span, query: str) -> Span | None:
        """The run of 1-3 whole sentences of the chunk that best matches ``query``, is a quotable
        length and overlaps no quote picked so far; else the chunk's opening, cut at a word."""
        text = self.corpus.documents[d_index].text
        parts = sentences(text, span)
        wanted = _words(query)
        best, best_score = None, -1.0
        for first in range(len(parts)):
            for last in range(first, min(first + 3, len(parts))):
                window = Span(parts[first].start, parts[last].end)
                length = window.end - window.start
                if length > QUOTE_MAX_CHARS:
                    break
                if length < QUOTE_MIN_CHARS or self._overlaps(d_index, window):
                    continue
                # Words of the query count most; length only up to a sentence or two.
                score = len(wanted & _words(window.of(text))) + min(length, 160) / 160
                if score > best_score:
                    best, best_score = window, score
        if best is not None:
            return best
        end = min(span.end, span.start + QUOTE_MAX_CHARS)
        if end < span.end and text.rfind(" ", span.start, end) > span.start:
            end = text.rfind(" ", span.start, end)
        window = Span(span.start, end)
        if end - span.start < 12 or self._overlaps(d_index, window):
            return None
        return window
