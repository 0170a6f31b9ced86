"""How one PositionUpdate changes the ledger. Pure: plain dicts in, plain dicts out.

Model output is untrusted, so a participant is named by the id the digest was shown and checked
(gateways/llm/references.py: by id, else by exact or loosely read name); anyone else is dropped,
nothing is duplicated, lists are capped, and only the speaker's own challenges can be marked
answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from debates.blackboard.ledger_text import usable
from gateways.llm.references import Participants

MAX_ITEMS = 8  # per list: older entries make way for newer ones
EPISTEMIC_WEIGHTS = {"disagreement": 3, "concession": 4, "shift": 5}


def empty_state() -> dict:
    return {
        "overall_stance": "",
        "overall_stance_seq": None,
        "topic_side": "",
        "topic_side_seq": None,
        "topic_condition": "",
        "aspect_positions": {},
        "agreements": [],
        "disagreements": [],
        "concessions": [],
        "shifts": [],
        "last_updated_round": 0,
    }


@dataclass
class LedgerChange:
    speaker: dict
    # persona_id -> challenges to add to that persona's unanswered list on the current aspect
    challenges_for: dict[int, list[str]] = field(default_factory=dict)
    epistemic_score: int = 0
    proposal: str | None = None
    decision: str | None = None


def _add(items: list, item, key=lambda x: x) -> tuple[list, bool]:
    """items with item appended (oldest dropped past MAX_ITEMS), and whether it was new."""
    if item is None or any(key(existing) == key(item) for existing in items):
        return items, False
    return (items + [item])[-MAX_ITEMS:], True


def _append(items: list, item, key=lambda x: x) -> list:
    return _add(items, item, key)[0]


def _clean(text: str | None) -> str | None:
    """The text, stripped; None when it is empty or degenerate (it would be fed back into prompts)."""
    return usable(text)


def _condition(update, state: dict) -> str:
    """What a side hangs on once this update is folded: the condition it gives for a NUANCED
    side; one said before stands while the side stays NUANCED and this message names none."""
    if update.topic_side != "NUANCED":
        return ""
    said = _clean(getattr(update, "topic_condition", None))
    if said:
        return said[:240]
    return state.get("topic_condition", "") if state.get("topic_side") == "NUANCED" else ""


def said_later(said_at: int | None, held_since: int | None) -> bool:
    """Whether a side (or overall stance) a message gives replaces the one held: unless it was
    said before the statement that one comes from (both places in the log known). The ledger
    folds a crux room's messages late, often after newer main-channel statements of the same
    speaker."""
    return said_at is None or held_since is None or said_at >= held_since


def apply_update(
    *,
    state: dict,
    update,
    speaker_id: int,
    participants: Participants,
    aspect_index: int | None,
    round_number: int,
    said_at: int | None = None,
) -> LedgerChange:
    """participants: who takes part (persona pk, persona id, name). said_at: where the message
    finished in the debate's log (its message_completed event's seq), None if not known. Returns
    the speaker's new state and side effects."""
    state = {**empty_state(), **state}
    state["aspect_positions"] = {k: dict(v) for k, v in state["aspect_positions"].items()}
    aspect_key = str(aspect_index if aspect_index is not None else "general")
    aspect = {"position": "", "evidence": [], "challenged": [], **state["aspect_positions"].get(aspect_key, {})}

    def who(named: str, what: str) -> int | None:
        persona_id = participants.key(named, what=f"A ledger update's {what}")
        return persona_id if persona_id != speaker_id else None

    change = LedgerChange(speaker=state)
    if (stance := _clean(update.overall_stance)) and said_later(said_at, state["overall_stance_seq"]):
        state["overall_stance"], state["overall_stance_seq"] = stance, said_at
    if update.topic_side and said_later(said_at, state["topic_side_seq"]):
        state["topic_condition"] = _condition(update, state)
        state["topic_side"], state["topic_side_seq"] = update.topic_side, said_at
    # The position on an aspect is where they stand now, as the side is (position_seq, in the
    # aspect's entry, the place in the log of the statement it comes from).
    if (position := _clean(update.aspect_position)) and said_later(said_at, aspect.get("position_seq")):
        aspect["position"], aspect["position_seq"] = position, said_at
    for item in update.evidence:
        aspect["evidence"] = _append(aspect["evidence"], _clean(item))
    answered = {(text or "").strip().lower() for text in update.challenges_answered}
    for other in state["aspect_positions"].values():
        other["challenged"] = [c for c in other.get("challenged", []) if c.lower() not in answered]
    aspect["challenged"] = [c for c in aspect["challenged"] if c.lower() not in answered]
    state["aspect_positions"][aspect_key] = aspect

    for challenge in update.challenges_raised:
        target = who(challenge.to, "challenge")
        if target is not None and _clean(challenge.challenge):
            change.challenges_for.setdefault(target, []).append(challenge.challenge.strip())
    agreement = update.new_agreement
    if agreement and (other := who(agreement.with_, "agreement")) is not None and (on := _clean(agreement.on)):
        state["agreements"] = _append(
            state["agreements"],
            {"with": other, "on": on},
            key=lambda a: (a["with"], a["on"].lower()),
        )
    stated = update.new_disagreement
    if stated and (other := who(stated.with_, "disagreement")) is not None and (on := _clean(stated.on)):
        disagreement = {"with": other, "on": on, "intensity": stated.intensity}
        state["disagreements"], added = _add(
            state["disagreements"], disagreement, key=lambda d: (d["with"], d["on"].lower())
        )
        change.epistemic_score += EPISTEMIC_WEIGHTS["disagreement"] * added
    # Concessions are never dropped: the closing context lists every one of them.
    concession = _clean(update.concession)
    if concession and concession.lower() not in {c.lower() for c in state["concessions"]}:
        state["concessions"] = state["concessions"] + [concession]
        change.epistemic_score += EPISTEMIC_WEIGHTS["concession"]
    if shift := _clean(update.shift):
        state["shifts"], added = _add(state["shifts"], shift, key=str.lower)
        change.epistemic_score += EPISTEMIC_WEIGHTS["shift"] * added
    state["last_updated_round"] = round_number
    change.proposal = _clean(update.proposal)
    change.decision = _clean(update.decision)
    return change


CITED_EXCERPT_CHARS = 160


def citation_evidence(citation: dict) -> str:
    """How a passage of the speaker's own corpus reads in the evidence ledger."""
    excerpt = " ".join(citation["excerpt"].split())
    if len(excerpt) > CITED_EXCERPT_CHARS:
        excerpt = excerpt[:CITED_EXCERPT_CHARS].rsplit(" ", 1)[0] + "…"
    return f'their own writing, {citation["source"]}: "{excerpt}"'


def add_evidence(state: dict, evidence: list[str], aspect_index: int | None) -> dict:
    """state with ``evidence`` added to the aspect's list (each once, the oldest dropped past MAX_ITEMS)."""
    state = {**empty_state(), **state}
    state["aspect_positions"] = {k: dict(v) for k, v in state["aspect_positions"].items()}
    key = str(aspect_index if aspect_index is not None else "general")
    aspect = {"position": "", "evidence": [], "challenged": [], **state["aspect_positions"].get(key, {})}
    for item in evidence:
        aspect["evidence"] = _append(aspect["evidence"], item)
    state["aspect_positions"][key] = aspect
    return state


def add_challenges(state: dict, challenges: list[str], aspect_index: int | None) -> dict:
    state = {**empty_state(), **state}
    state["aspect_positions"] = {k: dict(v) for k, v in state["aspect_positions"].items()}
    key = str(aspect_index if aspect_index is not None else "general")
    aspect = {"position": "", "evidence": [], "challenged": [], **state["aspect_positions"].get(key, {})}
    for challenge in challenges:
        aspect["challenged"] = _append(aspect["challenged"], challenge, key=str.lower)
    state["aspect_positions"][key] = aspect
    return state


def updates_by_turn(updates: list, window: dict[int, int], participants: Participants) -> dict[int, object | None]:
    """A digest's updates matched to the messages it was asked about. ``window``: turn -> the
    speaker's persona pk, for each message to fold. Returns turn -> its update, or None where the
    model gave none usable (the message is then marked tried, as a failed update is).

    Model output is untrusted: an update for a turn not asked about, or naming (by id or name)
    anyone but that turn's speaker, is dropped (it would put words in the wrong mouth); a turn
    answered twice keeps its first answer."""
    matched: dict[int, object | None] = dict.fromkeys(window)
    for update in updates:
        speaker = window.get(update.turn)
        if speaker is None or matched[update.turn] is not None:
            continue
        if participants.key(update.speaker, what=f"The update of turn {update.turn}") != speaker:
            continue
        matched[update.turn] = update
    return matched
