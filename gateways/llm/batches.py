"""Structured calls nobody waits on, at batch prices.

    results = batches.extract_batch([BatchCall(role=..., prompt=..., schema=..., tag=...), ...], what="...")

    batch_id = batches.batch_send(calls, what="...")      # or, not to hold a worker while it waits:
    results = batches.batch_collect(batch_id, calls, submitted=..., what="...")  # None: not yet

When the provider has a Message Batches API (the anthropic provider: half of every price, answers
within 24 hours) the calls go out as one batch, polled from the worker that runs this (never from a
web request) for at most ``max_wait`` seconds; else, or when the batch cannot be sent, each is a
direct ``extract`` call. Each answer is recorded in the ModelCall ledger like a direct call, priced
at the batch factor, and parsed against its schema exactly like one (model output is untrusted: a
mismatch gets the same single repair, direct). A request the batch did not answer (errored,
expired, canceled, or still waiting when the wait ran out) is made again directly: the work
degrades to full price, it is never lost. The live debate never comes here.

Each call's result is its parsed schema, or None where even the direct call failed (logged as
"<what> skipped", as ``extract_or_skip`` does).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from pydantic import BaseModel

from gateways.llm import gateway
from gateways.llm.types import CallTag, ModelError, Prompt, ProviderResult, Role

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchCall:
    role: Role
    prompt: Prompt
    schema: type[BaseModel]
    tag: CallTag = CallTag()


def batching_available() -> bool:
    """Whether the configured provider answers batches (the offline model does not)."""
    return bool(getattr(gateway.provider(), "supports_batches", False))


def extract_batch(
    calls: Sequence[BatchCall],
    *,
    what: str,
    on_status: Callable[[str], None] | None = None,
    poll_seconds: float | None = None,
    max_wait: float | None = None,
) -> list[BaseModel | None]:
    """The parsed answer to each call, in order (None: skipped after its direct fallback failed),
    waiting here for the batch. ``on_status`` hears, in words, where the batch is while it waits (by
    default it is logged). ``poll_seconds`` (between two looks, each a cheap GET) and ``max_wait``
    default to FAULTLINE_BATCH_POLL_SECONDS and FAULTLINE_BATCH_MAX_WAIT_SECONDS."""
    poll_seconds = settings.FAULTLINE_BATCH_POLL_SECONDS if poll_seconds is None else poll_seconds
    max_wait = settings.FAULTLINE_BATCH_MAX_WAIT_SECONDS if max_wait is None else max_wait
    status = on_status or (lambda text: logger.info("%s: %s", what, text))
    if not calls:
        return []
    started = time.monotonic()
    batch_id = batch_send(calls, what=what, on_status=status)
    if batch_id is None:
        return extract_direct(calls, what=what)
    answers = _wait_for(
        gateway.provider(), batch_id, started=started, what=what, poll_seconds=poll_seconds, max_wait=max_wait
    )
    results = _results(calls, answers, submitted=started, what=what)
    status("done")
    return results


# ── a batch waited on across tasks ─────────────────────────────────────────────────────────
# A worker that should not sit for an hour on one batch sends it (batch_send), keeps its id, and
# looks again later, from any process (batch_collect); past its longest wait it cancels it
# (batch_cancel) and looks once more. The calls are built again, the same, for each look: a
# request's custom_id is its place and its tag.


def batch_send(calls: Sequence[BatchCall], *, what: str, on_status: Callable[[str], None] | None = None) -> str | None:
    """Send ``calls`` as one Message Batch: its id; None when the provider has no batches or the
    batch could not be sent (the calls are then to be made directly: ``extract_direct``)."""
    if not calls or not batching_available():
        return None
    try:
        batch_id = gateway.provider().batch_submit(_requests(calls))
    except ModelError as exc:
        logger.warning("%s: the batch could not be sent (%s); every call goes direct", what, exc)
        if on_status:
            on_status("sent directly (the batch could not be sent)")
        return None
    if on_status:
        on_status(f"batched: {len(calls)} calls waiting ({batch_id})")
    return batch_id


def batch_collect(
    batch_id: str, calls: Sequence[BatchCall], *, submitted: float, what: str
) -> list[BaseModel | None] | None:
    """The parsed answer to each of ``calls`` (sent as ``batch_id``) once the batch has ended, each
    recorded in the ledger at the batch price; a request it did not answer is made directly. None
    while the batch still runs, or when it cannot be asked just now (look again later).
    ``submitted``: when the batch was sent, on time.monotonic()'s clock (for the ledger's latency)."""
    active = gateway.provider()
    try:
        if not active.batch_ended(batch_id):
            return None
        answers = active.batch_results(batch_id)
    except ModelError as exc:
        logger.warning("%s: batch %s could not be read (%s); looking again later", what, batch_id, exc)
        return None
    return _results(calls, answers, submitted=submitted, what=what)


def batch_cancel(batch_id: str, *, what: str) -> None:
    """Ask the API to cancel ``batch_id`` (what it answered before the cancel is still billed and
    collected): a batch past its longest wait. A failure is logged; the next look tries again."""
    try:
        gateway.provider().batch_cancel(batch_id)
    except ModelError as exc:
        logger.warning("%s: batch %s could not be canceled (%s)", what, batch_id, exc)


def extract_direct(calls: Sequence[BatchCall], *, what: str) -> list[BaseModel | None]:
    """Each call made directly, at full price (None where it failed)."""
    return [gateway.extract_or_skip(role=c.role, prompt=c.prompt, schema=c.schema, tag=c.tag, what=what) for c in calls]


def _requests(calls: Sequence[BatchCall]) -> list:
    from gateways.llm.providers.anthropic import BatchRequest, batch_custom_id

    return [
        BatchRequest(
            custom_id=batch_custom_id(index, call.role, call.tag),
            model=gateway.model_for(call.role),
            prompt=call.prompt,
            role=call.role,
            tag=call.tag,
            schema=gateway.strict_schema(call.schema),
        )
        for index, call in enumerate(calls)
    ]


def _results(calls: Sequence[BatchCall], answers: dict, *, submitted: float, what: str) -> list[BaseModel | None]:
    from gateways.llm.providers.anthropic import batch_custom_id

    results = []
    for index, call in enumerate(calls):
        custom_id = batch_custom_id(index, call.role, call.tag)
        answer = answers.get(custom_id, "missing from the results")
        if isinstance(answer, str):
            logger.warning("%s: batch request %s %s; made directly", what, custom_id, answer)
            results.extend(extract_direct([call], what=what))
            continue
        results.append(_parsed(call, answer, started=submitted, what=what))
    return results


def _wait_for(active, batch_id: str, *, started: float, what: str, poll_seconds: float, max_wait: float) -> dict:
    """The batch's answers once it ended; canceled (and whatever it answered before) past ``max_wait``;
    none at all if the API cannot be asked (every call then goes direct)."""
    try:
        while not active.batch_ended(batch_id):
            if time.monotonic() - started > max_wait:
                logger.warning("%s: batch %s still waiting after %.0f s; canceled", what, batch_id, max_wait)
                active.batch_cancel(batch_id)
                if not _ended_soon(active, batch_id, poll_seconds):
                    return {}
                break
            time.sleep(poll_seconds)
        return active.batch_results(batch_id)
    except ModelError as exc:
        logger.warning("%s: batch %s could not be read (%s); every call goes direct", what, batch_id, exc)
        with contextlib.suppress(ModelError):  # not to be billed twice, if the API hears it
            active.batch_cancel(batch_id)
        return {}


def _ended_soon(active, batch_id: str, poll_seconds: float, looks: int = 3) -> bool:
    for _ in range(looks):
        if active.batch_ended(batch_id):
            return True
        time.sleep(poll_seconds)
    return False


def _parsed(call: BatchCall, answer: ProviderResult, *, started: float, what: str):
    completion = gateway.record_batched(
        role=call.role, prompt=call.prompt, tag=call.tag, result=answer, submitted=started
    )
    try:
        return gateway.validated_or_repaired(
            role=call.role, prompt=call.prompt, schema=call.schema, tag=call.tag, completion=completion
        )
    except ModelError as exc:
        logger.warning("%s skipped: %s", what, exc)
        return None
