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
    """Where a call belongs, for the ledger and traces."""

    debate_id: uuid.UUID | None = None
    persona: str = ""
    phase: str = ""


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
