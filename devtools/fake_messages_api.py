"""A local stand-in for the Anthropic Messages API, for tests and benchmarks.

It speaks the wire format the official SDK expects (JSON and server-sent events), so the real SDK,
with its retries, streaming and parsing, is what gets exercised:

    with FakeMessagesAPI() as api:
        api.script(Reply.overloaded(), Reply.text("Hello"))
        settings.ANTHROPIC_BASE_URL = api.url
        ...
        api.requests  # every request body received, in order
        api.calls     # what each request said it was (its X-Faultline-Call header), in order

Replies come from the script first, then from ``responder(request_body, call) -> Reply`` if one is
set.

Usage is reported the way the real API reports it, prompt caching included: each ``cache_control``
breakpoint (at most four) caches the prompt up to and including its block, hashed, for its TTL
("5m" by default, "1h" when asked), but only if that prefix reaches the model's minimum cacheable
length (gateways/llm/pricing.py, beside the prices); a later request whose prefix matches reads it
(``cache_read_input_tokens``), a new one writes it (``cache_creation_input_tokens``), and only what
follows the last breakpoint is ``input_tokens``. Tokens are estimated at 4 characters each.
``clock`` (seconds) decides expiry: a benchmark passes a simulated one to play a long debate fast. ``call`` is what the request is, as the gateway labelled it (role, phase, persona): a scripted
model answers by that, never by the wording of the prompt.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

from gateways.llm.pricing import min_cacheable_tokens

CALL_HEADER = "X-Faultline-Call"  # sent by gateways/llm/providers/anthropic.py
MAX_BREAKPOINTS = 4  # the API refuses a request with more cache_control blocks
TTL_SECONDS = {"5m": 300, "1h": 3600}


@dataclass(frozen=True)
class Call:
    """What a request is: the gateway's role for it and its tag (the debate's phase, the persona
    speaking or spoken for), read from its X-Faultline-Call header; empty fields when absent."""

    role: str = ""
    phase: str = ""
    persona: str = ""
    debate: str = ""

    @classmethod
    def from_header(cls, value: str | None) -> Call:
        fields = {}
        for part in (value or "").split(";"):
            key, _, raw = part.strip().partition("=")
            if key in cls.__dataclass_fields__:
                fields[key] = unquote(raw)
        return cls(**fields)


@dataclass
class Reply:
    text: str = ""
    status: int = 200
    stop_reason: str = "end_turn"
    latency: float = 0.0  # seconds before the first byte
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    error_type: str = ""
    headers: dict = field(default_factory=dict)
    chunk_size: int = 12  # characters per streamed text delta
    chunk_delay: float = 0.0  # seconds between streamed deltas, like tokens arriving
    fail_mid_stream: bool = False  # stream an "overloaded_error" event after the first delta

    @classmethod
    def says(cls, text: str, **kwargs) -> Reply:
        return cls(text=text, **kwargs)

    @classmethod
    def json(cls, payload, **kwargs) -> Reply:
        return cls(text=json.dumps(payload), **kwargs)

    @classmethod
    def truncated(cls, text: str, **kwargs) -> Reply:
        return cls(text=text, stop_reason="max_tokens", **kwargs)

    @classmethod
    def rate_limited(cls, **kwargs) -> Reply:
        return cls(status=429, error_type="rate_limit_error", headers={"retry-after-ms": "5"}, **kwargs)

    @classmethod
    def overloaded(cls, **kwargs) -> Reply:
        return cls(status=529, error_type="overloaded_error", headers={"retry-after-ms": "5"}, **kwargs)


class FakeMessagesAPI:
    def __init__(
        self,
        responder: Callable[[dict, Call], Reply] | None = None,
        host: str = "127.0.0.1",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._script: deque[Reply] = deque()
        self.cache = PromptCache(clock)
        self.responder = responder
        self.requests: list[dict] = []
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer((host, 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def next_reply(self, body: dict, call: Call = Call()) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.calls.append(call)
            if self._script:
                return self._script.popleft()
        if self.responder is not None:
            return self.responder(body, call)
        return Reply(text="(the fake Messages API has no scripted reply left)")

    def start(self) -> FakeMessagesAPI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeMessagesAPI:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def reply_message(reply: Reply, body: dict, *, message_id: str, cached: CacheUsage | None = None) -> dict:
    """The Messages API's message for ``reply`` to the request ``body`` (a JSON reply as it is; a
    streamed one is this message told in events, see ``stream_events``)."""
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": [{"type": "text", "text": reply.text}],
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": _usage(reply, body, cached),
    }


def stream_events(message: dict, reply: Reply) -> Iterator[tuple[str, dict]]:
    """``message`` as the server-sent events of a streamed reply: (event name, payload), the text in
    ``reply.chunk_size`` deltas, cut by an ``error`` event after the first if ``fail_mid_stream``."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": start}
    yield (
        "content_block_start",
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    )
    text = reply.text
    for offset in range(0, len(text), reply.chunk_size):
        delta = {"type": "text_delta", "text": text[offset : offset + reply.chunk_size]}
        yield "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
        if reply.fail_mid_stream:
            yield (
                "error",
                {"type": "error", "error": {"type": "overloaded_error", "message": "scripted failure mid-stream"}},
            )
            return
    yield "content_block_stop", {"type": "content_block_stop", "index": 0}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def sse_event(name: str, payload: dict) -> bytes:
    return f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode()


def _usage(reply: Reply, body: dict, cached: CacheUsage | None = None) -> dict:
    """A scripted figure wins; else the prompt's own tokens, split by the cache as the API does."""
    cached = cached or CacheUsage(input_tokens=max(1, sum(tokens for _, tokens, _ in prompt_blocks(body))))
    return {
        "input_tokens": reply.input_tokens if reply.input_tokens is not None else cached.input_tokens,
        "output_tokens": reply.output_tokens if reply.output_tokens is not None else max(1, len(reply.text) // 4),
        "cache_creation_input_tokens": reply.cache_creation_tokens or cached.cache_creation_tokens,
        "cache_read_input_tokens": reply.cache_read_tokens or cached.cache_read_tokens,
    }


def tokens_of(text: str) -> int:
    return math.ceil(len(text) / 4)


def prompt_blocks(body: dict) -> list[tuple[str, int, dict | None]]:
    """The prompt as the API caches it, in its order (system, then messages): (block text, its
    tokens, its cache_control or None)."""
    blocks = []

    def add(content, role: str = "") -> None:
        if isinstance(content, str):
            blocks.append((role + content, tokens_of(content), None))
            return
        for block in content or []:
            text = block.get("text", "") if block.get("type", "text") == "text" else json.dumps(block)
            blocks.append((role + text, tokens_of(text), block.get("cache_control")))

    add(body.get("system", ""))
    for message in body.get("messages", []):
        add(message.get("content", ""), role=f"\x00{message.get('role', '')}\x00")
    return blocks


@dataclass(frozen=True)
class CacheUsage:
    input_tokens: int
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0


class PromptCache:
    """What the API keeps between requests: a hash of each cached prefix (per model) and when it
    expires. A hit refreshes the entry's TTL, as the API does."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._expires: dict[str, float] = {}
        self._lock = threading.Lock()

    def usage_for(self, body: dict) -> CacheUsage:
        model = body.get("model", "")
        blocks = prompt_blocks(body)
        total = sum(tokens for _, tokens, _ in blocks)
        breakpoints = [i for i, (_, _, control) in enumerate(blocks) if control]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise ValueError(f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided.")
        minimum = min_cacheable_tokens(model)
        if minimum is None or not breakpoints:
            return CacheUsage(input_tokens=max(1, total))
        digest = hashlib.sha256(model.encode())
        eligible = []  # (key, prefix tokens, ttl) of each breakpoint long enough to cache
        prefix_tokens = 0
        for index, (text, tokens, control) in enumerate(blocks):
            digest.update(text.encode() + b"\x01")
            prefix_tokens += tokens
            if control and prefix_tokens >= minimum:
                eligible.append((digest.hexdigest(), prefix_tokens, control.get("ttl", "5m")))
            if index == breakpoints[-1]:
                break
        with self._lock:
            now = self.clock()
            read = max((tokens for key, tokens, _ in eligible if self._expires.get(key, -1) > now), default=0)
            for key, _, ttl in eligible:
                self._expires[key] = now + TTL_SECONDS.get(ttl, 300)
        cached = max((tokens for _, tokens, _ in eligible), default=0)
        return CacheUsage(
            input_tokens=max(1, total - cached), cache_creation_tokens=cached - read, cache_read_tokens=read
        )


def _handler_for(api: FakeMessagesAPI):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # A JSON reply goes out as two writes (headers, then body) on a kept-alive connection. With
        # Nagle's algorithm the body waited for the client's delayed ACK of the headers: 40-45 ms
        # added to every non-streamed call after a connection's first, which no real API adds.
        disable_nagle_algorithm = True

        def log_message(self, *args) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            reply = api.next_reply(body, Call.from_header(self.headers.get(CALL_HEADER)))
            if reply.latency:
                time.sleep(reply.latency)
            if reply.status != 200:
                return self._send_json(
                    reply.status,
                    {
                        "type": "error",
                        "error": {"type": reply.error_type or "api_error", "message": "scripted failure"},
                    },
                    reply.headers,
                )
            try:
                cached = api.cache.usage_for(body)
            except ValueError as exc:
                return self._send_json(
                    400, {"type": "error", "error": {"type": "invalid_request_error", "message": str(exc)}}, {}
                )
            message = reply_message(reply, body, message_id=f"msg_fake_{len(api.requests)}", cached=cached)
            if body.get("stream"):
                try:
                    return self._send_stream(message, reply)
                except (BrokenPipeError, ConnectionResetError):  # the client stopped reading: its right
                    self.close_connection = True
                    return None
            return self._send_json(200, message, reply.headers)

        def _send_json(self, status: int, payload: dict, headers: dict) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_stream(self, message: dict, reply: Reply) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True
            for name, payload in stream_events(message, reply):
                self.wfile.write(sse_event(name, payload))
                self.wfile.flush()
                if name == "content_block_delta" and reply.chunk_delay:
                    time.sleep(reply.chunk_delay)

    return Handler
