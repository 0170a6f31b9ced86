"""``rundebate``'s lines for an Analyst/Critic debate: each round's score, the point lists, the
status, and how to continue a paused one."""

from __future__ import annotations

from debates.models import Debate
from debates.payloads import EventKind, parse_payload
from orchestration.modes.printing import Write, print_verdict


def print_analyst_critic(debate: Debate, write: Write) -> None:
    for event in debate.events.filter(kind=EventKind.ROUND_SCORED).order_by("seq"):
        scored = parse_payload(event.kind, event.payload)
        if scored.round == 0:
            write(f"Before round 1: {scored.agreed} established fact(s) from memory taken as agreed")
            continue
        note = ""
        if not scored.assessed:
            silent = scored.skipped == "critic_silent"
            note = " (no assessment: the Critic said nothing usable)" if silent else " (assessment skipped)"
        write(
            f"Round {scored.round}: consensus score {scored.score:.0f}% — {scored.agreed} agreed, "
            f"{scored.contested} contested, {scored.unverifiable} unverifiable{note}"
        )
        for line in scored.refused:
            write(f"  refused: {line}")
    results = debate.results or {}
    lists = (
        ("AGREED", "agreed"),
        ("CONTESTED", "contested"),
        ("UNVERIFIABLE", "unverifiable"),
        ("NARROWED", "refined"),
        ("NEGATED", "negated"),
        ("WITHDRAWN", "withdrawn"),
        ("SUPERSEDED (its negation was agreed)", "superseded"),  # debates stored before issue 39
    )
    for label, key in lists:
        for point in results.get(key, []):
            write(f"  {label}: {point}")
    for point in results.get("points", []):
        for challenge in point.get("challenges") or []:
            write(
                f"  CHALLENGED in round {challenge['round']} ({challenge['status']}), the fact stands: {point['text']}"
            )
    write(f"Status: {debate.status}")
    if debate.status == Debate.Status.PAUSED:
        last = debate.events.filter(kind=EventKind.DEBATE_PAUSED).order_by("-seq").first()
        paused = parse_payload(last.kind, last.payload) if last else None
        write(
            f"Paused after round {paused.round if paused else '?'}. Continue with: python manage.py rundebate "
            f"--resume {debate.id}   (or add --auto-continue to run every round left)"
        )
    elif results:
        print_verdict(results, write)
        write(f"Final consensus score: {results.get('score', 0):.0f}% (status: {results.get('status')})")
