"""Every prompt of the graph mode, in one place: the crystallizer's instructions, the map as the
crystallizer reads it, and the map as a persona sees it before speaking. Pure."""

from __future__ import annotations

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


def map_for_crystallizer(graph: DisputeGraph, labels: dict[str, str]) -> str:
    if not graph.disputes:
        return "(empty: no disputes yet)"
    lines = []
    for dispute in graph.disputes.values():
        lines.append(f"{dispute.id} [{dispute.disagreement_type}] {dispute.question}")
        for stance in graph.stances_of(dispute.id):
            lines.append(
                f"  {stance.id} {stance.side} — {stance.holder}: {stance.claim} [{labels.get(stance.id, 'UNDEC')}]"
            )
            for reason in graph.reasons_of(stance.id):
                granted = f" (granted by {', '.join(reason.granted_by)})" if reason.granted_by else ""
                lines.append(
                    f"    {reason.id} {reason.relation} {stance.id} — {reason.holder}: {reason.text}"
                    f" [{labels.get(reason.id, 'UNDEC')}]{granted}"
                )
    return "\n".join(lines)


def map_for_persona(graph: DisputeGraph, labels: dict[str, str], persona: str) -> str:
    """The open disputes, who says what, and where this persona stands on each."""
    if not graph.disputes:
        return ""
    lines = ["THE ARGUMENT MAP SO FAR (kept by the moderator)"]
    for dispute in graph.disputes.values():
        stances = graph.stances_of(dispute.id)
        sides = " · ".join(
            f"{side}: " + ", ".join("you" if s.holder == persona else s.holder for s in stances if s.side == side)
            for side in ("YES", "NO")
        )
        status = "open" if any(labels.get(s.id) == "UNDEC" for s in stances) else "decided"
        lines.append(f"• {dispute.question} — {sides} ({status})")
        against = [
            r.text
            for s in stances
            if s.holder == persona
            for r in graph.reasons_of(s.id)
            if r.relation == "attacks" and persona not in r.granted_by
        ]
        if against:
            lines.append("  Objections to you still standing: " + "; ".join(against[:2]))
    lines.append(PERSONA_MAP_HINT)
    return "\n".join(lines)
