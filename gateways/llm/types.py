"""The vocabulary shared by the gateway and its providers."""

from __future__ import annotations

import enum
import uuid
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field


class Role(enum.StrEnum):
    """What a call is for; settings map each role to a model per provider. A mode's own roles
    (the Analyst's, the Critic's, ...) are plain names its spec registers (gateways/llm/roles.py)."""

    PERSONA = "persona"  # a persona speaking (streamed)
    EXTRACTION = "extraction"  # cheap structured reads of what was said
    JUDGING = "judging"  # yes/no checks such as "has the crux surfaced?"
    SYNTHESIS = "synthesis"  # cards and summaries that need a stronger model


@dataclass(frozen=True)
class Prompt:
    # Stable across a debate (persona contract + rules): sent first and marked for prompt caching.
    system_prefix: str
    # [{"role": "user" | "assistant", "content": str | text_blocks(...)}, ...]
    messages: list[dict]
    # Varies per call; sent after the cached prefix.
    system: str = ""
    max_tokens: int = 600
    temperature: float = 0.8
    # How long the provider keeps the cached prefix after its last use: "5m", or "1h" for a prefix
    # whose next use may come more than five minutes later (a debate that waits for its user);
    # the hour's cache write costs 2x the input price against 1.25x (gateways/llm/pricing.py).
    cache_ttl: str = "5m"
    # The system prefix's own TTL, when it outlives the rest ("" = cache_ttl): "1h" keeps a
    # persona's contract cached through its owner's pause while the exchange after it is cached
    # for five minutes (the API takes a one-hour breakpoint only before five-minute ones).
    prefix_cache_ttl: str = ""


# A text block that asks for a cache breakpoint after it carries this; the provider keeps it only
# where the prefix up to it reaches the model's minimum, and sets the prompt's TTL on it.
CACHE_MARK = {"type": "ephemeral"}


def text_blocks(parts: Sequence[str], *, cache_after: Collection[int] = ()) -> list[dict]:
    """A message's content as text blocks, in the Messages API's shape: ``parts`` one block each
    (empty ones left out), a cache breakpoint asked for after the parts whose index is in
    ``cache_after``. The provider caches a prefix only at a block boundary, so what stays the
    same between calls goes in blocks of its own, before what changes."""
    blocks = []
    for index, text in enumerate(parts):
        if text:
            blocks.append(
                {"type": "text", "text": text, **({"cache_control": CACHE_MARK} if index in cache_after else {})}
            )
    return blocks


def content_text(content: str | list[dict]) -> str:
    """A message's text, whether its content is a string or text blocks (the blocks' texts, as the
    model reads them: one after the other)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if block.get("type", "text") == "text")


@dataclass(frozen=True)
class CallTag:
    """Where a call belongs and what it is about, in ids only: the ledger (ModelCall) and traces
    record it, the provider sends it with the request (the X-Faultline-Call header), and scripted
    test models answer by it and by the call's schema, never by its prompt's wording. It leaves
    the machine, so it carries ids and numbers only, never content: no name, no topic, no text
    (tests/llm/test_call_tag_ids.py runs every mode and checks).

    ``persona`` and ``addressee`` are persona ids (``Persona.persona_id``); ``participants`` the
    debate's, in seat order, on the calls whose prompt lists them (``[persona-id] Name`` lines,
    orchestration/prompts.py); ``items`` the ids of the ``[ID] text`` lines the call is about (the
    known disputes a scan may name, a crux room's dispute). ``round`` counts from 1 (an
    Analyst/Critic or Collaborate round; a discussion's round is its aspect), ``aspect`` is the
    aspect's index (from 0, as ``Message.aspect_index``). ``turn`` is the turn a speaking call
    says (a crux room counts its own), ``turns`` those a structured call reads about (a digest's
    to fold, a round's two, the crystallizer's new ones). ``attempt`` 2 is a turn asked again
    (the voice guard's second draft)."""

    debate_id: uuid.UUID | None = None
    persona: str = ""
    phase: str = ""
    addressee: str = ""
    round: int | None = None
    aspect: int | None = None
    room: int | None = None
    turn: int | None = None
    turns: tuple[int, ...] = ()
    participants: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    attempt: int = 1

    def fields(self) -> dict[str, str]:
        """The tag as text, field by field, the empty ones left out (a list joined by commas): what
        the X-Faultline-Call header carries and a call's ledger row records."""
        values = {
            "debate": str(self.debate_id or ""),
            "persona": self.persona,
            "phase": self.phase,
            "addressee": self.addressee,
            "round": "" if self.round is None else str(self.round),
            "aspect": "" if self.aspect is None else str(self.aspect),
            "room": "" if self.room is None else str(self.room),
            "turn": "" if self.turn is None else str(self.turn),
            "turns": ",".join(str(turn) for turn in self.turns),
            "participants": ",".join(self.participants),
            "items": ",".join(self.items),
            "attempt": "" if self.attempt == 1 else str(self.attempt),
        }
        return {key: value for key, value in values.items() if value}


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    # Of cache_creation_tokens, those written to the one-hour cache (billed 2x, not 1.25x).
    cache_creation_1h_tokens: int = 0


@dataclass
class ProviderResult:
    text: str
    model: str
    usage: Usage = field(default_factory=Usage)
    stop_reason: str = ""

    @property
    def truncated(self) -> bool:
        return self.stop_reason == "max_tokens"


@dataclass
class Completion:
    text: str
    model: str
    provider: str
    usage: Usage
    stop_reason: str
    call_id: int | None = None


@dataclass(frozen=True)
class ProviderStatus:
    provider: str
    ready: bool
    detail: str


class ModelError(Exception):
    """Base of every error the gateway raises; its message is fit to show a user."""


class ProviderError(ModelError):
    """The provider failed after the SDK's own retries (overloaded, rate-limited, unreachable...)."""


class ModelUnavailable(ProviderError):
    """Overloaded, rate-limited, timed out or unreachable past the SDK's retries: a passing state
    of the provider, worth waiting out (the run loop does), not a fault of the request."""


class StructuredOutputError(ModelError):
    """The model's output did not match the schema, even after one repair attempt."""
