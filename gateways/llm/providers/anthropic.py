"""Claude through the official SDK. Retries and timeouts are the SDK's own (configured in
settings); nothing here retries on top of them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

import anthropic
import httpx2  # the SDK's HTTP library (a dependency of anthropic): the warm-up's in-memory transport
from django.conf import settings

from gateways.llm.pricing import breakpoint_pays, estimated_tokens, min_cacheable_tokens
from gateways.llm.roles import models_of
from gateways.llm.types import CallTag, ModelUnavailable, Prompt, ProviderError, ProviderResult, ProviderStatus, Usage

# What each request is, for request logs and the API proxies a deployment may put between us and
# the API (a gateway that splits spend by role or debate): "role=persona; phase=opening;
# persona=ada; debate=<uuid>". The API itself ignores it.
CALL_HEADER = "X-Faultline-Call"
MAX_BREAKPOINTS = 4  # cache_control blocks the API accepts in one request


class AnthropicProvider:
    name = "anthropic"
    supports_batches = True  # the Message Batches API (gateways/llm/batches.py)

    def __init__(self, client: anthropic.Anthropic | None = None) -> None:
        self.client = client or anthropic.Anthropic(
            api_key=settings.ANTHROPIC_API_KEY or "missing-key",
            base_url=settings.ANTHROPIC_BASE_URL,
            max_retries=settings.ANTHROPIC_MAX_RETRIES,
            timeout=settings.ANTHROPIC_TIMEOUT_SECONDS,
        )

    def warm_up(self) -> None:
        """Pay now what a process's first calls pay: the SDK builds the pydantic validators of its
        request options, messages and stream events at first use (about 30 ms of CPU, under the GIL).
        The calls are answered in memory: nothing leaves the process, nothing is billed or recorded."""
        offline = AnthropicProvider(
            anthropic.Anthropic(
                api_key="warm-up",
                base_url="http://warm-up.invalid",
                max_retries=0,
                http_client=httpx2.Client(transport=httpx2.MockTransport(_warm_up_reply)),
            )
        )
        prompt = Prompt(system_prefix="warm-up", messages=[{"role": "user", "content": "warm-up"}], max_tokens=16)
        offline.complete_json(model=WARM_UP_MODEL, prompt=prompt, schema={"type": "object", "properties": {}})
        offline.stream(model=WARM_UP_MODEL, prompt=prompt, on_text=lambda text: None)
        offline.client.close()

    def status(self) -> ProviderStatus:
        if not settings.ANTHROPIC_API_KEY:
            return ProviderStatus(self.name, False, "FAULTLINE_LLM=anthropic but ANTHROPIC_API_KEY is not set")
        models = ", ".join(sorted(models_of("anthropic")))
        return ProviderStatus(self.name, True, f"Claude via the anthropic SDK ({models})")

    def complete(self, *, model: str, prompt: Prompt, role: str = "", tag: CallTag = CallTag()) -> ProviderResult:
        return self._create(self._request(model, prompt, role, tag))

    def complete_json(
        self, *, model: str, prompt: Prompt, schema: dict, role: str = "", tag: CallTag = CallTag()
    ) -> ProviderResult:
        # The API accepts a subset of JSON Schema; the SDK's transform moves the rest (lengths,
        # ranges) into descriptions, and pydantic still enforces them on the way back.
        strict = anthropic.transform_schema(schema)
        return self._create(
            self._request(model, prompt, role, tag),
            output_config={"format": {"type": "json_schema", "schema": strict}},
        )

    def stream(
        self,
        *,
        model: str,
        prompt: Prompt,
        on_text: Callable[[str], bool | None],
        role: str = "",
        tag: CallTag = CallTag(),
    ) -> ProviderResult:
        """Stream text to ``on_text``; when it returns True the rest is not wanted and the stream is closed.

        Reads the raw server-sent events rather than the SDK's accumulating helper: a turn needs only
        the text deltas and the usage, and rebuilding a message snapshot at every delta is CPU spent
        on the critical path of every debate."""
        parts: list[str] = []
        served_by, stop_reason = model, ""
        usage = Usage()
        try:
            with self.client.messages.create(**self._request(model, prompt, role, tag), stream=True) as events:
                for event in events:
                    if event.type == "message_start":
                        served_by = event.message.model
                        start = event.message.usage
                        usage.input_tokens = start.input_tokens or 0
                        usage.cache_creation_tokens = start.cache_creation_input_tokens or 0
                        usage.cache_creation_1h_tokens = _written_for_the_hour(start)
                        usage.cache_read_tokens = start.cache_read_input_tokens or 0
                    elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                        parts.append(event.delta.text)
                        if on_text(event.delta.text):
                            stop_reason = "stop_requested"  # leaving the block closes the response
                            break
                    elif event.type == "message_delta":
                        stop_reason = event.delta.stop_reason or ""
                        usage.output_tokens = event.usage.output_tokens or 0
        except anthropic.APIError as exc:
            raise _error(exc) from exc
        text = "".join(parts)
        if stop_reason == "stop_requested":
            # Stopped before the final usage arrived: count what was generated (about 4 characters a token).
            usage.output_tokens = max(usage.output_tokens, -(-len(text) // 4))
        return ProviderResult(text=text, model=served_by, stop_reason=stop_reason, usage=usage)

    # ── Message Batches: half price, answered within 24 hours, for work nobody waits on ──────────

    def batch_submit(self, requests: list[BatchRequest]) -> str:
        """Send ``requests`` as one Message Batch; its id."""
        items = []
        for request in requests:
            params = self._request(request.model, request.prompt, request.role, request.tag)
            params.pop("extra_headers")  # a batch request carries no headers: its custom_id says what it is
            if request.schema is not None:
                params["output_config"] = {
                    "format": {"type": "json_schema", "schema": anthropic.transform_schema(request.schema)}
                }
            items.append({"custom_id": request.custom_id, "params": params})
        try:
            return self.client.messages.batches.create(requests=items).id
        except anthropic.APIError as exc:
            raise _error(exc) from exc

    def batch_ended(self, batch_id: str) -> bool:
        try:
            return self.client.messages.batches.retrieve(batch_id).processing_status == "ended"
        except anthropic.APIError as exc:
            raise _error(exc) from exc

    def batch_cancel(self, batch_id: str) -> None:
        try:
            self.client.messages.batches.cancel(batch_id)
        except anthropic.APIError as exc:
            raise _error(exc) from exc

    def batch_results(self, batch_id: str) -> dict[str, ProviderResult | str]:
        """custom_id -> its result, or why it has none ("errored: ...", "expired", "canceled")."""
        answers: dict[str, ProviderResult | str] = {}
        try:
            for line in self.client.messages.batches.results(batch_id):
                result = line.result
                if result.type == "succeeded":
                    answers[line.custom_id] = _result(result.message)
                elif result.type == "errored":
                    answers[line.custom_id] = f"errored: {result.error.error.type}: {result.error.error.message}"
                else:
                    answers[line.custom_id] = result.type
        except anthropic.APIError as exc:
            raise _error(exc) from exc
        return answers

    def _create(self, request: dict, **extra) -> ProviderResult:
        try:
            message = self.client.messages.create(**request, **extra)
        except anthropic.APIError as exc:
            raise _error(exc) from exc
        return _result(message)

    @staticmethod
    def _request(model: str, prompt: Prompt, role: str, tag: CallTag) -> dict:
        # No temperature: current Claude models take none (this SDK no longer accepts it).
        # The stable prefix carries the cache breakpoint, so every later call of the same persona
        # in the same debate reads it from the cache instead of paying for it again; a prefix
        # shorter than the model's minimum cacheable length caches nothing and gets no breakpoint.
        control = _cache_control(prompt.cache_ttl)
        system = [{"type": "text", "text": prompt.system_prefix}]
        if breakpoint_pays(prompt.system_prefix, model):
            system[0]["cache_control"] = _cache_control(prompt.prefix_cache_ttl or prompt.cache_ttl)
        if prompt.system:
            system.append({"type": "text", "text": prompt.system})
        return {
            "model": model,
            "max_tokens": prompt.max_tokens,
            "system": system,
            "messages": _marked(prompt.messages, before=system, model=model, control=control),
            "extra_headers": call_header(role, tag),
        }


def _cache_control(ttl: str) -> dict:
    return {"type": "ephemeral", **({"ttl": ttl} if ttl != "5m" else {})}


def _written_for_the_hour(usage) -> int:
    """Of a response's cache writes, those to the one-hour cache (the usage's breakdown; none
    when the API gives no breakdown)."""
    breakdown = getattr(usage, "cache_creation", None)
    return (getattr(breakdown, "ephemeral_1h_input_tokens", 0) or 0) if breakdown else 0


def _marked(messages: list[dict], *, before: list[dict], model: str, control: dict) -> list[dict]:
    """``messages`` with the cache breakpoints their text blocks ask for (types.text_blocks) kept
    where they pay: the prefix up to the block, system included, reaches the model's minimum, and
    the request holds no more than the API's four. The others are dropped (the API would ignore a
    short one, and refuse a fifth)."""
    minimum = min_cacheable_tokens(model)
    marks = sum(1 for block in before if "cache_control" in block)
    prefix = sum(estimated_tokens(block["text"]) for block in before)
    marked = []
    for message in messages:
        content = message["content"]
        if isinstance(content, str):
            prefix += estimated_tokens(content)
            marked.append(message)
            continue
        blocks = []
        for block in content:
            prefix += estimated_tokens(block.get("text", ""))
            wanted = "cache_control" in block
            block = {key: value for key, value in block.items() if key != "cache_control"}
            if wanted and minimum is not None and prefix >= minimum and marks < MAX_BREAKPOINTS:
                block["cache_control"] = control
                marks += 1
            blocks.append(block)
        marked.append({**message, "content": blocks})
    return marked


@dataclass(frozen=True)
class BatchRequest:
    """One call of a Message Batch: ``schema`` (a JSON schema) for structured output, else text."""

    custom_id: str
    model: str
    prompt: Prompt
    role: str
    tag: CallTag
    schema: dict | None = None


def batch_custom_id(index: int, role: str, tag: CallTag) -> str:
    """A batch request's custom_id: "<index>-<role>-<phase>", what its X-Faultline-Call header
    would say as far as the API allows (letters, digits, "_" and "-", at most 64 characters)."""

    def word(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_]", "_", text)

    return f"{index}-{word(str(getattr(role, 'value', role) or ''))}-{word(tag.phase)}"[:64]


def call_header(role: str, tag: CallTag) -> dict[str, str]:
    """The X-Faultline-Call header of a call (none for a call with no role or tag): "key=value; ..."
    of the role and the tag's fields (CallTag.fields: ids and numbers only), each value
    percent-encoded (commas between a list's ids kept), as a header is ASCII."""
    fields = {"role": str(getattr(role, "value", role) or ""), **tag.fields()}
    value = "; ".join(f"{key}={quote(text, safe=',')}" for key, text in fields.items() if text)
    return {CALL_HEADER: value} if value else {}


def _result(message, stop_reason: str = "") -> ProviderResult:
    text = "".join(block.text for block in message.content if block.type == "text")
    usage = message.usage
    output_tokens = usage.output_tokens or 0
    if stop_reason:
        # Stopped before the final usage arrived: count what was generated (about 4 characters a token).
        output_tokens = max(output_tokens, -(-len(text) // 4))
    return ProviderResult(
        text=text,
        model=message.model,
        stop_reason=stop_reason or message.stop_reason or "",
        usage=Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=output_tokens,
            cache_creation_tokens=usage.cache_creation_input_tokens or 0,
            cache_creation_1h_tokens=_written_for_the_hour(usage),
            cache_read_tokens=usage.cache_read_input_tokens or 0,
        ),
    )


WARM_UP_MODEL = "warm-up"


def _warm_up_reply(request: httpx2.Request) -> httpx2.Response:
    """The Messages API's answer to the warm-up, in its wire format: one message saying "{}", as
    JSON or as the server-sent events of a stream (every event type the stream reader parses)."""
    body = json.loads(request.content)
    usage = {"input_tokens": 1, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    message = {
        "id": "msg_warm_up",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", WARM_UP_MODEL),
        "content": [{"type": "text", "text": "{}"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": usage,
    }
    if not body.get("stream"):
        return httpx2.Response(200, json=message)
    events = [
        {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "{}"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": usage},
        {"type": "message_stop"},
    ]
    stream = "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events)
    return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=stream.encode())


# Worth waiting out: the API is busy or unreachable, not refusing the request.
TRANSIENT_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
TRANSIENT_TYPES = {"overloaded_error", "rate_limit_error", "api_error", "timeout_error"}


def _error(exc: anthropic.APIError) -> ProviderError:
    transient = isinstance(exc, anthropic.APIConnectionError)  # timeouts included
    if isinstance(exc, anthropic.APIStatusError):
        transient = exc.status_code in TRANSIENT_STATUS
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error") if isinstance(body.get("error"), dict) else body
    if error.get("type") in TRANSIENT_TYPES:  # an error event in the middle of a stream
        transient = True
    return (ModelUnavailable if transient else ProviderError)(_describe(exc))


def _describe(exc: anthropic.APIError) -> str:
    if isinstance(exc, anthropic.APIStatusError):
        kind = {429: "rate limited", 529: "overloaded"}.get(exc.status_code, "error")
        return f"Anthropic API {kind} (HTTP {exc.status_code}) after retries: {exc.message}"
    if isinstance(exc, anthropic.APITimeoutError):
        return "Anthropic API timed out after retries"
    if isinstance(exc, anthropic.APIConnectionError):
        return f"Could not reach the Anthropic API: {exc}"
    return f"Anthropic API error: {exc}"
