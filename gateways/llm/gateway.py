"""The single way any code calls a model.

    gateway.generate(role=Role.SYNTHESIS, prompt=..., tag=CallTag(debate_id=...))
    gateway.stream(role=Role.PERSONA, prompt=..., on_text=push_delta, tag=...)
    gateway.extract(role=Role.EXTRACTION, prompt=..., schema=CruxCheck, tag=...)

Roles map to models in settings.FAULTLINE_MODELS and the roles modes register (gateways/llm/roles.py);
the provider is settings.FAULTLINE_LLM.
Every call, failed ones included, is written to the ModelCall ledger, and observers registered
with ``trace_calls`` see the full prompt (the CLI's --trace uses that).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TypeVar

from django.conf import settings
from django.db import connection
from django.utils import timezone
from pydantic import BaseModel, ValidationError

from gateways.llm import prompts, roles
from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from gateways.llm.types import (
    CallTag,
    Completion,
    ModelError,
    ModelUnavailable,
    Prompt,
    ProviderError,
    ProviderResult,
    ProviderStatus,
    Role,
    StructuredOutputError,
    Usage,
)

logger = logging.getLogger(__name__)
SchemaT = TypeVar("SchemaT", bound=BaseModel)

__all__ = [
    "CallTag",
    "Completion",
    "ModelError",
    "Prompt",
    "ProviderError",
    "Role",
    "StructuredOutputError",
    "extract",
    "generate",
    "model_for",
    "provider",
    "provider_status",
    "stream",
    "trace_calls",
    "validated_or_repaired",
    "warm_up",
]


@functools.cache
def _provider_named(name: str):
    if name == "anthropic":
        from gateways.llm.providers.anthropic import AnthropicProvider

        return AnthropicProvider()
    from gateways.llm.providers.local import LocalProvider

    return LocalProvider()


# Ten debates starting at once in a thread pool all ask for the provider before any has it:
# functools.cache would build one each (an SDK client and its SSL context, ~0.2 CPU-s apiece,
# just when the openings' events are being pushed). One is built; the others wait for it.
_building = threading.Lock()


def provider():
    with _building:
        return _provider_named(settings.FAULTLINE_LLM)


def reset_provider() -> None:
    """Forget the configured client (tests switch ANTHROPIC_BASE_URL between servers)."""
    _provider_named.cache_clear()


def warm_up() -> None:
    """Import and build the configured provider, and let it pay its first call's costs, before a
    worker takes a debate (faultline/celery.py): else the first debates of a process pay them all at
    once (importing the anthropic SDK alone is about 0.9 CPU-s under the GIL) while the worker
    pushes their first events. Sends nothing to the API."""
    provider().warm_up()


def provider_status() -> ProviderStatus:
    return provider().status()


def model_for(role: Role | str) -> str:
    return roles.model_for(role)


# ── Observers ─────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class CallRecord:
    role: str
    provider: str
    model: str
    tag: CallTag
    prompt: Prompt
    usage: Usage
    text: str
    error: str
    latency_ms: int


_observers: list[Callable[[CallRecord], None]] = []


@contextlib.contextmanager
def trace_calls(observer: Callable[[CallRecord], None]) -> Iterator[None]:
    _observers.append(observer)
    try:
        yield
    finally:
        _observers.remove(observer)


# ── Calls ─────────────────────────────────────────────────────────────────────────────────────


def generate(*, role: Role, prompt: Prompt, tag: CallTag = CallTag()) -> Completion:
    return _call(role, prompt, tag, lambda p, model: p.complete(model=model, prompt=prompt, role=role, tag=tag))


def stream(
    *,
    role: Role,
    prompt: Prompt,
    on_text: Callable[[str], bool | None],
    tag: CallTag = CallTag(),
    record_with: Callable[[Callable[[], None]], object] | None = None,
) -> Completion:
    """Stream text pieces to ``on_text``; if it returns True the provider stops generating
    (stop_reason "stop_requested") and the text so far is the completion.

    ``record_with``: where a successful call's ledger row is written (the run loop writes its
    main channel's rows beside the next turn); the completion then has no ``call_id``."""
    return _call(
        role,
        prompt,
        tag,
        lambda p, model: p.stream(model=model, prompt=prompt, on_text=on_text, role=role, tag=tag),
        True,
        record_with=record_with,
    )


def extract(
    *, role: Role, prompt: Prompt, schema: type[SchemaT], tag: CallTag = CallTag(), record_with=None
) -> SchemaT:
    """Structured output validated against ``schema``; one repair attempt, then StructuredOutputError.
    ``record_with``: as for ``stream``."""
    completion = _complete_json(role, prompt, schema, tag, record_with)
    return validated_or_repaired(
        role=role, prompt=prompt, schema=schema, tag=tag, completion=completion, record_with=record_with
    )


def _complete_json(role: Role, prompt: Prompt, schema: type[BaseModel], tag: CallTag, record_with) -> Completion:
    json_schema = _strict_schema(schema)
    return _call(
        role,
        prompt,
        tag,
        lambda p, model: p.complete_json(model=model, prompt=prompt, schema=json_schema, role=role, tag=tag),
        record_with=record_with,
    )


def validated_or_repaired(
    *, role: Role, prompt: Prompt, schema: type[SchemaT], tag: CallTag, completion: Completion, record_with=None
) -> SchemaT:
    """``completion`` (the answer to ``prompt``) validated against ``schema``; if it does not match,
    one repair call, direct (a batched answer is repaired the same way: gateways/llm/batches.py)."""
    try:
        return _validate(schema, completion)
    except StructuredOutputError as first_error:
        repair = Prompt(
            system_prefix=prompt.system_prefix,
            system=prompt.system,
            max_tokens=prompt.max_tokens,
            temperature=0.0,
            cache_ttl=prompt.cache_ttl,
            prefix_cache_ttl=prompt.prefix_cache_ttl,
            messages=[
                *prompt.messages,
                {"role": "assistant", "content": completion.text or prompts.EMPTY_OUTPUT},
                {"role": "user", "content": prompts.REPAIR.format(error=first_error)},
            ],
        )
        logger.warning("Structured output for %s failed validation, repairing once: %s", role, first_error)
        retry = _complete_json(role, repair, schema, replace(tag, attempt=tag.attempt + 1), record_with)
        try:
            return _validate(schema, retry)
        except StructuredOutputError as second_error:
            raise StructuredOutputError(
                f"{schema.__name__}: the model's output did not match the schema after one repair: {second_error}"
            ) from second_error


def extract_or_skip(
    *,
    role: Role,
    prompt: Prompt,
    schema: type[SchemaT],
    tag: CallTag = CallTag(),
    what: str,
    skip_outages: bool = True,
    record_with=None,
) -> SchemaT | None:
    """``extract`` for side work a debate can go on without: a model failure (after the repair
    retry) is logged as "<what> skipped" and comes back as None. With ``skip_outages=False`` an
    outage (ModelUnavailable) is raised instead, for work worth doing again once it passes."""
    try:
        return extract(role=role, prompt=prompt, schema=schema, tag=tag, record_with=record_with)
    except ModelError as exc:
        if isinstance(exc, ModelUnavailable) and not skip_outages:
            raise
        logger.warning("%s skipped (the debate goes on): %s", what, exc)
        return None


def _validate(schema: type[SchemaT], completion: Completion) -> SchemaT:
    if completion.stop_reason == "max_tokens":
        raise StructuredOutputError("output was cut off at the token limit")
    try:
        return schema.model_validate_json(_tolerate_raw_control_characters(completion.text))
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()[:5]
        )
        raise StructuredOutputError(problems) from exc


def _tolerate_raw_control_characters(text: str) -> str:
    """Small models put raw newlines and tabs inside JSON strings; strict JSON forbids them.

    That slip loses nothing, so such text is re-serialized with the characters escaped and then
    validated as usual; anything else that is not JSON is left for the validator to report.
    """
    try:
        json.loads(text)
        return text
    except ValueError:
        pass
    try:
        return json.dumps(json.loads(text, strict=False))
    except ValueError:
        return text


@functools.cache
def _strict_schema(schema: type[BaseModel]) -> dict:
    """The pydantic schema, tightened the way constrained decoders want it."""
    return _close_objects(schema.model_json_schema())


def _close_objects(node):
    if isinstance(node, dict):
        node = {key: _close_objects(value) for key, value in node.items()}
        if node.get("type") == "object" and "properties" in node:
            node.setdefault("additionalProperties", False)
        return node
    if isinstance(node, list):
        return [_close_objects(item) for item in node]
    return node


def _release_connection() -> None:
    """A model call is seconds of waiting: the thread's database connection goes back to its
    process's pool meanwhile (a budget shared by every thread: ops/connections.py), unless a
    transaction holds it. The next query borrows one again, already open."""
    if not connection.in_atomic_block:
        connection.close()


def _call(role: Role, prompt: Prompt, tag: CallTag, send, streamed: bool = False, record_with=None) -> Completion:
    _release_connection()
    active = provider()
    model = model_for(role)
    started = time.monotonic()
    result: ProviderResult | None = None
    error = ""
    sent = _Sent(role, active.name, model, tag, prompt, started, streamed)
    try:
        result = send(active, model)
        return Completion(
            text=result.text,
            model=result.model,
            provider=active.name,
            usage=result.usage,
            stop_reason=result.stop_reason,
            call_id=_record(sent, result, "", record_with).id,
        )
    except ModelError as exc:
        error = str(exc)
        _record(sent, None, error)
        raise
    except Exception as exc:  # an unexpected provider failure still lands in the ledger, typed
        error = f"{type(exc).__name__}: {exc}"
        _record(sent, None, error)
        raise ProviderError(error) from exc


@dataclass(frozen=True)
class _Sent:
    """One call as it went out: what its ModelCall row records besides the result."""

    role: Role
    provider_name: str
    model: str
    tag: CallTag
    prompt: Prompt
    started: float  # time.monotonic()
    streamed: bool
    batched: bool = False  # answered through the Message Batches API: billed at BATCH_FACTOR


def _record(sent: _Sent, result, error, record_with=None) -> ModelCall:
    role, provider_name, model, tag, prompt = sent.role, sent.provider_name, sent.model, sent.tag, sent.prompt
    usage = result.usage if result else Usage()
    latency_ms = int((time.monotonic() - sent.started) * 1000)
    answered_by = result.model if result else model
    tokens = dict(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_creation_tokens=usage.cache_creation_tokens,
        cache_read_tokens=usage.cache_read_tokens,
    )
    call = ModelCall(
        created_at=timezone.now(),
        debate_id=tag.debate_id,
        role=roles.model_role_name(role),
        provider=provider_name,
        model=answered_by,
        persona=tag.persona,
        phase=tag.phase,
        tag=_tag_recorded(tag),
        streamed=sent.streamed,
        **tokens,
        latency_ms=latency_ms,
        cost_usd=estimate_cost(
            model=answered_by,
            **tokens,
            cache_ttl=prompt.cache_ttl,
            batched=sent.batched,
            # The API's breakdown of the writes by TTL, when it gave one (else the prompt's TTL).
            cache_creation_1h_tokens=usage.cache_creation_1h_tokens or None,
        ),
        error=error,
    )
    if record_with is None:
        call.save(force_insert=True)
    else:  # written a moment later, with the time the call ended (raw: created_at as set here)
        record_with(lambda: call.save_base(raw=True, force_insert=True))
    record = CallRecord(
        role=roles.model_role_name(role),
        provider=provider_name,
        model=call.model,
        tag=tag,
        prompt=prompt,
        usage=usage,
        text=result.text if result else "",
        error=error,
        latency_ms=latency_ms,
    )
    for observer in list(_observers):
        observer(record)
    return call


def _tag_recorded(tag: CallTag) -> dict[str, str]:
    """What a call's ledger row keeps of its tag beside its own columns (debate, persona, phase)."""
    return {key: value for key, value in tag.fields().items() if key not in ("debate", "persona", "phase")}


def call_record_json(record: CallRecord) -> str:
    """One JSON line for a trace file: role, persona, phase and the rest of the tag, the full prompt, tokens."""
    return json.dumps(
        {
            "role": record.role,
            "provider": record.provider,
            "model": record.model,
            "debate": str(record.tag.debate_id) if record.tag.debate_id else None,
            "persona": record.tag.persona,
            "phase": record.tag.phase,
            "tag": _tag_recorded(record.tag),
            "system": [record.prompt.system_prefix, record.prompt.system],
            "messages": record.prompt.messages,
            "input_tokens": record.usage.input_tokens,
            "output_tokens": record.usage.output_tokens,
            "cache_read_tokens": record.usage.cache_read_tokens,
            "latency_ms": record.latency_ms,
            "error": record.error,
        },
        ensure_ascii=False,
    )


def strict_schema(schema: type[BaseModel]) -> dict:
    """The JSON schema a structured call of ``schema`` sends (a batched one too)."""
    return _strict_schema(schema)


def record_batched(*, role: Role, prompt: Prompt, tag: CallTag, result: ProviderResult, submitted: float) -> Completion:
    """Record one answer of a Message Batch in the ledger, like a direct call but at the batch
    price (latency: from the batch's submission, time.monotonic()); the completion to parse."""
    active = provider()
    sent = _Sent(role, active.name, model_for(role), tag, prompt, submitted, streamed=False, batched=True)
    return Completion(
        text=result.text,
        model=result.model,
        provider=active.name,
        usage=result.usage,
        stop_reason=result.stop_reason,
        call_id=_record(sent, result, "").id,
    )
