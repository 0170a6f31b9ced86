"""What a debate is doing now, in words: the line the live page's banner, the replay and
``rundebate`` show ("Opening statements: The Macro Trader is thinking…").

It is read from the folded log (debates/state.py), from events the run writes anyway (the phase,
a message begun or finished, a crux room opened, a round scored, the model waited on) and one that
exists for it (``turn_requested``: a speaker's model call went out, before its first word). So it
changes once per step, never per token. It reads no database: the page, the replay and the
command line show the same words. The counts the status line, the summary and the exports give
(messages, turns, rounds) are worded here too, once.
"""

from __future__ import annotations

from dataclasses import dataclass

from debates.modes import mode_find
from debates.panels import TURN_COUNTER
from debates.state import DebateView, MessageView
from debates.turns import DIALOGUE_KINDS

# The phase as a reader would say it (the status line, the banner, the replay).
PHASE_LABELS = {
    "": "Getting started",
    "planning": "Planning the aspects",
    "opening": "Opening statements",
    "openings": "Opening statements",
    "dialogue": "Dialogue",
    "closing": "Closing statements",
    "closings": "Closing statements",
    "results": "Drawing up the results",
    "done": "Done",
    "synthesis": "Writing the synthesis",
    "drafting": "Both roles answer the brief",
    "revising": "Each revises on the other's answer",
    "artifact": "Writing the artifact",
}
# Turn kinds that are written at length (Markdown), not spoken; and whose speaker is no persona but
# the synthesis.
WRITTEN_KINDS = {"draft", "revision", "artifact", "synthesis"}
SYNTHESIS_KINDS = {"artifact", "synthesis"}
SYNTHESIS_STEP = "the synthesis is being written…"


@dataclass(frozen=True)
class Activity:
    """now: what the debate's main line is doing; beside: what runs beside it (the aspect plan
    being made, crux rooms); step: names the step, so the page's elapsed-time counter restarts
    when it changes."""

    now: str
    beside: tuple[str, ...] = ()
    step: str = ""

    def lines(self) -> list[str]:
        return [self.now, *self.beside]


def phase_label(view: DebateView) -> str:
    """The phase as a reader would say it, with the aspect (or round) under discussion."""
    phase = str(view.phase or "").split(":")[0]
    label = PHASE_LABELS.get(phase, phase.replace("_", " ").capitalize())
    index = view.current_aspect
    if phase == "round" and index is not None:  # Analyst/Critic mode: rounds, not aspects
        return f"Round {index + 1}"
    if index is not None and 0 <= index < len(view.aspects):
        aspect = view.aspects[index]
        if isinstance(aspect, dict) and aspect.get("label"):
            label = f"{label}: {aspect['label']}"
    return label


def speaker_words(view: DebateView, *, name: str, seat: int, kind: str) -> str:
    """Who a turn is, as the banner says it: the persona, its role in a fixed-seat mode ("the
    Critic (The Macro Trader)"), or the synthesis."""
    if kind in SYNTHESIS_KINDS:
        return "the synthesis"
    spec = mode_find(view.mode)
    if spec is not None and spec.seats and 0 <= seat < len(spec.seats):
        role = spec.seats[seat].name
        return f"the {role}" if name == role else f"the {role} ({name})"
    return name


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _names(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _main_messages(view: DebateView) -> list[MessageView]:
    return [item.message for item in view.chat if item.kind == "message" and item.message is not None]


def _main_step(view: DebateView) -> str:
    """What the main channel is doing, after its phase."""
    messages = _main_messages(view)
    streaming = [m for m in messages if m.streaming]
    if streaming:
        if all(m.kind in SYNTHESIS_KINDS for m in streaming):
            return SYNTHESIS_STEP
        if all(m.kind in WRITTEN_KINDS for m in streaming):  # written side by side (Collaborate)
            who = [speaker_words(view, name=m.persona_name, seat=m.seat, kind=m.kind) for m in streaming]
            return f"{_names(who)} {'are' if len(who) > 1 else 'is'} writing…"
        last = streaming[-1]
        return f"{speaker_words(view, name=last.persona_name, seat=last.seat, kind=last.kind)} is speaking…"
    said = [item.seq for item in view.chat if item.kind in ("message", "pass")]
    asked = view.asked.get("main")
    if asked and asked["seq"] > max(said, default=0):
        who = speaker_words(view, name=asked["persona_name"], seat=asked["seat"], kind=asked["kind"])
        if asked["kind"] in SYNTHESIS_KINDS:
            return SYNTHESIS_STEP
        return f"{who} is thinking…"
    last = messages[-1] if messages else None
    if last is not None and last.kind == "critique" and not last.streaming:
        round_number = (last.aspect_index or 0) + 1
        if int(view.consensus.get("round") or 0) < round_number:
            critic = speaker_words(view, name=last.persona_name, seat=last.seat, kind=last.kind)
            return f"{critic} is assessing round {round_number}…"
    closings = [m for m in messages if m.kind == "closing" and not m.streaming]
    if view.personas and len(closings) >= len(view.personas):
        return "all are in; drawing up the results…"
    if not messages and not view.phase:
        return "reading what earlier debates left…" if not view.memory else "about to begin…"
    return ""


def _room_line(view: DebateView, room) -> str:
    names = f"{room.persona_a.get('name', '')} and {room.persona_b.get('name', '')}"
    streaming = [m for m in room.messages if m.streaming]
    if streaming:
        return f"Crux room {room.suit} ({names}): {streaming[-1].persona_name} is speaking."
    asked = view.asked.get(room.id)
    said = max((m.seq for m in room.messages), default=0)
    if asked and asked["seq"] > said:
        return f"Crux room {room.suit} ({names}): {asked['persona_name']} is thinking."
    if not room.messages:
        return f"Crux room {room.suit} opening: {names} on “{room.question}”"
    return f"Crux room {room.suit} ({names}) is open on “{room.question}”"


def debate_activity(view: DebateView) -> Activity | None:
    """What the debate is doing now; None once it is paused or has ended (the banner says so)."""
    if view.status == "pending":
        if view.last_seq:
            return Activity("Waiting for a worker to continue the debate…", step=f"pending-{view.last_seq}")
        return Activity("Waiting for a worker to start the debate…", step="pending")
    if view.status != "running":
        return None
    phase = phase_label(view)
    if view.waiting_for_model.get("retrying"):
        now = f"{phase}: trying the model again (it was overloaded or unavailable)…"
        return Activity(now, step=f"retrying-{view.last_seq}")
    if view.waiting_for_model:
        retry = float(view.waiting_for_model.get("retry_in") or 0)
        now = f"{phase}: waiting for the model, which is overloaded or unavailable; trying again in {retry:.0f} s…"
        return Activity(now, step=f"waiting-{view.last_seq}")
    step = _main_step(view)
    # The synthesis's own phase already says what is being written.
    now = f"{phase}…" if not step or step == SYNTHESIS_STEP else f"{phase}: {step}"
    beside = []
    planning = str(view.phase or "").startswith("opening") and not view.aspects
    if planning:
        beside.append("Meanwhile the aspects of the question are being planned.")
    beside += [_room_line(view, room) for room in view.rooms if room.live]
    return Activity(_capitalised(now), tuple(beside), step=now)


def paused_words(view: DebateView) -> str:
    """Where a paused debate stopped, as the banner says it."""
    paused = view.paused or {}
    number = int(paused.get("round") or 0)
    if paused.get("reason") != "round" or not number:
        return "Paused at the owner's request."
    if view.consensus:
        score = float(view.consensus.get("score") or 0)
        return f"Paused after round {number} at {score:.0f}% consensus."
    labels = [str(aspect.get("label", "")) for aspect in view.aspects if isinstance(aspect, dict)]
    if 1 <= number <= len(labels) and labels[number - 1]:
        return f"Paused after aspect {number} of {len(labels)}, “{labels[number - 1]}”."
    if any(item.message and item.message.kind == "draft" for item in view.chat):
        return "Paused after the first answers."
    return f"Paused after round {number}."


def dialogue_turns(view: DebateView) -> int:
    """Turns of the debate's budget (Debate.max_turns) said so far: dialogue turns and passes, not
    the openings or closings (debates/turns.py)."""
    return sum(
        1
        for item in view.chat
        if item.kind == "pass" or (item.kind == "message" and item.message.kind in DIALOGUE_KINDS)
    )


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def counts_words(view: DebateView) -> str:
    """The debate's size, in the status line's words: its messages, and its budget as the mode
    counts it (turns of the dialogue's budget, or rounds)."""
    parts = [_plural(view.message_count, "message")]
    spec = mode_find(view.mode)
    if spec is not None and spec.rounds_setting:
        done = int(view.consensus.get("round") or 0)
        parts.append(f"{done} of {_plural(view.max_turns, 'round')}" if view.max_turns else _plural(done, "round"))
    elif view.panels.counter == TURN_COUNTER:
        done = dialogue_turns(view)
        parts.append(f"{done} of {_plural(view.max_turns, 'turn')}" if view.max_turns else _plural(done, "turn"))
    return " · ".join(parts)


# What each event is, as the replay's step says it ("Step 12 of 80 · a message was finished").
EVENT_LABELS = {
    "debate_started": "the debate began",
    "aspects_set": "the aspects were planned",
    "phase_changed": "a new phase began",
    "turn_requested": "a speaker was asked",
    "message_started": "a message began",
    "message_completed": "a message was finished",
    "message_withdrawn": "a message was taken back",
    "turn_passed": "a persona passed",
    "room_opened": "a crux room opened",
    "room_closed": "a crux room closed",
    "card_posted": "a crux card was dealt",
    "ledger_updated": "a position was updated",
    "debate_resumed": "the debate resumed",
    "debate_finished": "the debate ended",
    "debate_failed": "the debate failed",
    "model_waiting": "the model was waited for",
    "graph_updated": "the argument map changed",
    "memory_recalled": "memory was recalled",
    "round_scored": "a round was scored",
    "debate_paused": "the debate paused",
    "debate_continued": "the owner continued it",
    "conversation_noted": "where they stand was noted",
    "circling_noticed": "the talk went in circles",
    "interjection_posted": "the owner spoke",
    "interjection_answered": "the owner was answered",
    "question_decided": "the question to decide was set",
    "decisions_noted": "the key decisions were noted",
}


def event_label(kind: str) -> str:
    return EVENT_LABELS.get(str(kind or ""), str(kind or "").replace("_", " "))
