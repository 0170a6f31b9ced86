"""Every prompt of the graph mode, in one place: the crystallizer's instructions, the map as the
crystallizer reads it, and the map as a persona sees it before speaking. Pure.

Every module-level string here is prompt wording (the test suite rewords them all:
tests/support/rewording.py). The map the crystallizer reads is written in item lines
(gateways/llm/prompt_lines.py), each node under the one it belongs to: ``[D1] (type) question``,
under it ``[S1] Holder: YES — claim (label)``, under that ``[R1] Holder: attacks S1 — text
(label)``; the turns in transcript lines.
"""

from __future__ import annotations

from gateways.llm.prompt_lines import item_line

from .dispute_graph import DisputeGraph

CRYSTALLIZER = """You keep the argument map of a live debate. Every few turns you read what was just said and
propose changes to the map. The map is dispute-centric, and its rules are checked before anything applies:

- A DISPUTE is a binary yes/no question on which at least one participant says YES and another says NO.
  Only open one when both sides were actually taken in the debate. A claim nobody contradicted is not a
  dispute; leave it out. Never record agreement as a dispute.
- A STANCE is one participant's YES or NO on one dispute, with their position in one sentence. One stance
  per participant per dispute.
- A REASON supports or attacks one existing stance. Nobody attacks their own side.
- For stances and reasons, name at most two unstated ASSUMPTIONS they rest on, each with a concrete
  question whose answer would settle it. These assumptions are how cruxes are found, so be precise.
- A CONCESSION is when someone plainly gives ground: giving up their own stance (target their stance id),
  withdrawing their own reason, or granting an opponent's reason (target that reason id).
- A REFRAME sharpens a dispute's question; a CRUX PROPOSAL is when someone says a dispute is what it all
  turns on.

Tag every new turn with its move: CLAIM, CHALLENGE, CLARIFY, CONCEDE, REFRAME or PROPOSE_CRUX.
Cite the turn number where each stance, reason and concession was said, and use exact participant names
and the ids shown in the map. Record only what was actually said. Keep the map sparse: a few disputes
that matter, not one per sentence. If nothing new was said, propose nothing."""

PERSONA_MAP_HINT = (
    "If one of these is the question everything turns on, say so plainly. If you have been persuaded on "
    "one, concede it plainly; conceding what is right is respected."
)
PERSONA_MAP_TITLE = "THE ARGUMENT MAP SO FAR (kept by the moderator)"
PERSONA_MAP_YOU = "you"
PERSONA_MAP_OPEN = "open"
PERSONA_MAP_DECIDED = "decided"
PERSONA_MAP_OBJECTIONS = "  Objections to you still standing: {objections}"

# The crystallizer's user message and the map in it (item lines, see the module's docstring).
CRYSTALLIZER_TOPIC = "Topic: {topic}"
CRYSTALLIZER_PARTICIPANTS = "Participants:\n{participants}"
CRYSTALLIZER_MAP = "THE MAP NOW\n{map}"
CRYSTALLIZER_EARLIER = "ALREADY READ (context only)\n{transcript}"
CRYSTALLIZER_NEW = "NEW TURNS\n{transcript}"
CRYSTALLIZER_INTERJECTIONS = "THE OWNER'S INTERJECTIONS IN THESE TURNS (map what they raise like any move)\n{lines}"
CRYSTALLIZER_INTERJECTION = "[before turn {turn}] The owner ({kind}{to}): {text}{source}"
CRYSTALLIZER_INTERJECTION_TO = ", to {name}"
CRYSTALLIZER_INTERJECTION_SOURCE = " (source: {source})"
MAP_EMPTY = "(empty: no disputes yet)"
MAP_GRANTED = "granted by {names}"


def map_for_crystallizer(graph: DisputeGraph, labels: dict[str, str]) -> str:
    """The map as item lines: its layout is data, not wording (the module's docstring)."""
    if not graph.disputes:
        return MAP_EMPTY
    lines = []
    for dispute in graph.disputes.values():
        lines.append(item_line(dispute.id, f"({dispute.disagreement_type}) {dispute.question}"))
        for stance in graph.stances_of(dispute.id):
            label = labels.get(stance.id, "UNDEC")
            lines.append(item_line(stance.id, f"{stance.holder}: {stance.side} — {stance.claim} ({label})", depth=1))
            for reason in graph.reasons_of(stance.id):
                granted = "; " + MAP_GRANTED.format(names=", ".join(reason.granted_by)) if reason.granted_by else ""
                label = labels.get(reason.id, "UNDEC")
                text = f"{reason.holder}: {reason.relation} {stance.id} — {reason.text} ({label}{granted})"
                lines.append(item_line(reason.id, text, depth=2))
    return "\n".join(lines)


def map_for_persona(graph: DisputeGraph, labels: dict[str, str], persona: str) -> str:
    """The open disputes, who says what, and where this persona stands on each."""
    if not graph.disputes:
        return ""
    lines = [PERSONA_MAP_TITLE]
    for dispute in graph.disputes.values():
        stances = graph.stances_of(dispute.id)
        sides = " · ".join(
            f"{side}: "
            + ", ".join(PERSONA_MAP_YOU if s.holder == persona else s.holder for s in stances if s.side == side)
            for side in ("YES", "NO")
        )
        status = PERSONA_MAP_OPEN if any(labels.get(s.id) == "UNDEC" for s in stances) else PERSONA_MAP_DECIDED
        lines.append(f"• {dispute.question} — {sides} ({status})")
        against = [
            r.text
            for s in stances
            if s.holder == persona
            for r in graph.reasons_of(s.id)
            if r.relation == "attacks" and persona not in r.granted_by
        ]
        if against:
            lines.append(PERSONA_MAP_OBJECTIONS.format(objections="; ".join(against[:2])))
    lines.append(PERSONA_MAP_HINT)
    return "\n".join(lines)
