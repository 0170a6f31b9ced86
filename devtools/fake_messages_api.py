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
follows the last breakpoint is ``input_tokens``. A breakpoint reads the longest prefix cached at
its own block boundary or one of the LOOKBACK_BLOCKS before it (entries are only ever written at
breakpoints), as the API does. Tokens are estimated at 4 characters each.
``clock`` (seconds) decides expiry: a benchmark passes a simulated one to play a long debate fast. ``call`` is what the request is, as the gateway labelled it (role, phase, persona): a scripted
model answers by that, never by the wording of the prompt.

The Message Batches endpoints are served too (create, retrieve, results as JSONL, cancel). A batch
stays ``in_progress`` for its first ``batch_polls`` retrievals, then ends; each of its requests is
answered then, by the same script and responder as a direct call, its ``Call`` read from the
request's ``custom_id`` (a batch request carries no headers; see ``Call.from_custom_id``). A reply
with a non-200 status becomes an ``errored`` result, ``Reply.expired()`` an ``expired`` one.
``api.batched`` lists every batch request received (custom_id, params), in order.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
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
# A breakpoint also reads a prefix cached at an earlier block boundary, up to about 20 blocks
# before it (the API's documented lookback): a conversation that grows by a few blocks per call,
# its breakpoint moved to its end, reads what its last call wrote there.
LOOKBACK_BLOCKS = 20
TTL_SECONDS = {"5m": 300, "1h": 3600}
BATCH_PATH = re.compile(r"^/v1/messages/batches/(?P<id>[^/]+)(?P<tail>/results|/cancel)?$")
NOT_FOUND = {"type": "error", "error": {"type": "not_found_error", "message": "no such batch"}}


@dataclass(frozen=True)
class Call:
    """What a request is: the gateway's role for it and its tag (gateways/llm/types.py CallTag: the
    debate, the phase, the persona speaking or spoken for, whom it answers, the round, the turns it
    is about...), read from its X-Faultline-Call header; empty fields when absent. Ids and numbers
    only: what a scripted model may know of a call besides its schema and the documented lines of
    its prompt (devtools/prompt_reading.py)."""

    role: str = ""
    phase: str = ""
    persona: str = ""
    debate: str = ""
    addressee: str = ""
    round: int | None = None
    aspect: int | None = None
    room: int | None = None
    turn: int | None = None
    turns: tuple[int, ...] = ()
    participants: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    attempt: int = 1

    @classmethod
    def from_header(cls, value: str | None) -> Call:
        fields: dict = {}
        for part in (value or "").split(";"):
            key, _, raw = part.strip().partition("=")
            if key not in cls.__dataclass_fields__:
                continue
            if key in ("round", "aspect", "room", "turn", "attempt"):
                fields[key] = int(unquote(raw))
            elif key == "turns":
                fields[key] = tuple(int(turn) for turn in unquote(raw).split(","))
            elif key in ("participants", "items"):
                fields[key] = tuple(unquote(item) for item in raw.split(","))
            else:
                fields[key] = unquote(raw)
        return cls(**fields)

    @classmethod
    def from_custom_id(cls, custom_id: str) -> Call:
        """A batch request's custom_id, as gateways/llm/providers/anthropic.py writes it:
        "<index>-<role>-<phase>" (only letters, digits, "_" and "-" are allowed there)."""
        parts = (custom_id or "").split("-")
        return cls(role=parts[1] if len(parts) > 1 else "", phase=parts[2] if len(parts) > 2 else "")


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

    @classmethod
    def expired(cls, **kwargs) -> Reply:
        """A batch request the API did not get to within the batch's 24 hours."""
        return cls(status=0, error_type="expired", **kwargs)


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
        self.batched: list[dict] = []  # every batch request received: {"custom_id", "params"}
        self.batches: dict[str, FakeBatch] = {}
        self.batch_polls = 1  # retrievals a batch answers "in_progress" before it ends
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

    def batch_create(self, requests: list[dict]) -> FakeBatch:
        with self._lock:
            batch = FakeBatch(id=f"msgbatch_fake_{len(self.batches) + 1}", requests=list(requests))
            self.batches[batch.id] = batch
            self.batched.extend(requests)
        return batch

    def batch_poll(self, batch_id: str) -> FakeBatch | None:
        """A retrieval: the batch's polls count down, and at zero its requests are answered."""
        batch = self.batches.get(batch_id)
        if batch is None:
            return None
        with self._lock:
            batch.polls += 1
            due = batch.status == "in_progress" and batch.polls > self.batch_polls
        if due:
            self._batch_end(batch)
        return batch

    def batch_cancel(self, batch_id: str) -> FakeBatch | None:
        batch = self.batches.get(batch_id)
        if batch is not None and batch.status == "in_progress":
            batch.results = [{"custom_id": r["custom_id"], "result": {"type": "canceled"}} for r in batch.requests]
            batch.status = "ended"
        return batch

    def _batch_end(self, batch: FakeBatch) -> None:
        results = []
        for index, request in enumerate(batch.requests):
            params = request.get("params", {})
            reply = self.next_reply(params, Call.from_custom_id(request.get("custom_id", "")))
            if reply.error_type == "expired":
                result = {"type": "expired"}
            elif reply.status != 200:
                error = {"type": reply.error_type or "api_error", "message": "scripted failure"}
                result = {"type": "errored", "error": {"type": "error", "error": error}}
            else:
                try:
                    cached = self.cache.usage_for(params)
                except ValueError as exc:
                    error = {"type": "invalid_request_error", "message": str(exc)}
                    result = {"type": "errored", "error": {"type": "error", "error": error}}
                else:
                    message = reply_message(reply, params, message_id=f"msg_{batch.id}_{index}", cached=cached)
                    result = {"type": "succeeded", "message": message}
            results.append({"custom_id": request.get("custom_id", ""), "result": result})
        batch.results = results
        batch.status = "ended"

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


@dataclass
class FakeBatch:
    id: str
    requests: list[dict]
    status: str = "in_progress"
    polls: int = 0
    results: list[dict] = field(default_factory=list)

    def as_json(self, base_url: str) -> dict:
        counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        if self.status == "ended":
            for line in self.results:
                counts[line["result"]["type"]] += 1
        else:
            counts["processing"] = len(self.requests)
        ended = self.status == "ended"
        return {
            "id": self.id,
            "type": "message_batch",
            "processing_status": self.status,
            "request_counts": counts,
            "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z",
            "ended_at": "2026-01-01T00:01:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{base_url}/v1/messages/batches/{self.id}/results" if ended else None,
        }


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
        **_writes_by_ttl(reply, cached),
    }


def _writes_by_ttl(reply: Reply, cached: CacheUsage) -> dict:
    """The usage's breakdown of the cache writes by TTL, as the API gives it (a scripted figure of
    writes is all five-minute)."""
    if reply.cache_creation_tokens:
        return {
            "cache_creation": {"ephemeral_5m_input_tokens": reply.cache_creation_tokens, "ephemeral_1h_input_tokens": 0}
        }
    hour = cached.cache_creation_1h_tokens
    return {
        "cache_creation": {
            "ephemeral_5m_input_tokens": cached.cache_creation_tokens - hour,
            "ephemeral_1h_input_tokens": hour,
        }
    }


def message_text(content) -> str:
    """A message's text, its content a string or text blocks (a scripted model reads the words)."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content or [] if block.get("type", "text") == "text")


def user_text(body: dict) -> str:
    """What a request's user messages say, one after the other."""
    return "\n".join(message_text(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user")


def system_text(body: dict) -> str:
    """What a request's system prompt says, its blocks one after the other."""
    system = body.get("system") or ""
    return system if isinstance(system, str) else "\n".join(block["text"] for block in system)


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
    cache_creation_1h_tokens: int = 0  # of the writes, those to the one-hour cache


class PromptCache:
    """What the API keeps between requests: a hash of each cached prefix (per model) and when it
    expires. A hit refreshes the entry's TTL, as the API does."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._expires: dict[str, float] = {}
        self._ttls: dict[str, int] = {}  # seconds an entry lives after its last use
        self._lock = threading.Lock()

    def usage_for(self, body: dict) -> CacheUsage:
        model = body.get("model", "")
        blocks = prompt_blocks(body)
        total = sum(tokens for _, tokens, _ in blocks)
        breakpoints = [i for i, (_, _, control) in enumerate(blocks) if control]
        if len(breakpoints) > MAX_BREAKPOINTS:
            raise ValueError(f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided.")
        ttls = [blocks[i][2].get("ttl", "5m") for i in breakpoints]
        if "1h" in ttls and "5m" in ttls[: len(ttls) - ttls[::-1].index("1h")]:
            raise ValueError("A ttl='1h' cache_control block must not come after a ttl='5m' one.")
        minimum = min_cacheable_tokens(model)
        if minimum is None or not breakpoints:
            return CacheUsage(input_tokens=max(1, total))
        digest = hashlib.sha256(model.encode())
        boundaries = []  # (key, prefix tokens) at the end of each block, up to the last breakpoint
        eligible = []  # (block index, ttl) of each breakpoint long enough to cache
        prefix_tokens = 0
        for index, (text, tokens, control) in enumerate(blocks):
            digest.update(text.encode() + b"\x01")
            prefix_tokens += tokens
            boundaries.append((digest.hexdigest(), prefix_tokens))
            if control and prefix_tokens >= minimum:
                eligible.append((index, control.get("ttl", "5m")))
            if index == breakpoints[-1]:
                break
        with self._lock:
            now = self.clock()
            read = 0
            for index, _ in eligible:
                # A hit is looked for at the breakpoint and at the block boundaries before it, the
                # nearest first, up to LOOKBACK_BLOCKS back (only a breakpoint ever wrote one).
                for key, tokens in reversed(boundaries[max(0, index - LOOKBACK_BLOCKS) : index + 1]):
                    if self._expires.get(key, -1) > now:
                        read = max(read, tokens)
                        self._expires[key] = max(self._expires[key], now + self._ttls[key])
                        break
            for index, ttl in eligible:
                key = boundaries[index][0]
                self._ttls[key] = TTL_SECONDS.get(ttl, 300)
                self._expires[key] = now + self._ttls[key]
        cached = max((boundaries[index][1] for index, _ in eligible), default=0)
        # What is written up to the last one-hour breakpoint goes to the hour's cache (the API takes
        # one-hour breakpoints only before five-minute ones), the rest to the five minutes'.
        for_the_hour = max((boundaries[index][1] for index, ttl in eligible if ttl == "1h"), default=0)
        return CacheUsage(
            input_tokens=max(1, total - cached),
            cache_creation_tokens=cached - read,
            cache_read_tokens=read,
            cache_creation_1h_tokens=max(0, for_the_hour - read),
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

        def do_GET(self) -> None:
            path = self.path.split("?")[0].rstrip("/")
            match = BATCH_PATH.match(path)
            batch = api.batch_poll(match["id"]) if match and not match["tail"] else None
            if match and match["tail"] == "/results":
                batch = api.batches.get(match["id"])
                if batch is not None and batch.status == "ended":
                    data = "".join(json.dumps(line) + "\n" for line in batch.results).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/binary")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return None
            if batch is None:
                return self._send_json(404, NOT_FOUND, {})
            return self._send_json(200, batch.as_json(api.url), {})

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            path = self.path.split("?")[0].rstrip("/")
            if path == "/v1/messages/batches":
                return self._send_json(200, api.batch_create(body.get("requests", [])).as_json(api.url), {})
            if match := BATCH_PATH.match(path):
                batch = api.batch_cancel(match["id"]) if match["tail"] == "/cancel" else None
                if batch is None:
                    return self._send_json(404, NOT_FOUND, {})
                return self._send_json(200, batch.as_json(api.url), {})
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
