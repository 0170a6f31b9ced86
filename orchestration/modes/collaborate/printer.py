"""``rundebate``'s lines for a collaboration: the status, then the artifact itself, last, as the
Markdown it is."""

from __future__ import annotations

from debates.models import Debate
from debates.services.artifacts import debate_artifact
from orchestration.modes.printing import Write, print_verdict


def print_collaboration(debate: Debate, write: Write) -> None:
    results = debate.results or {}
    for name in results.get("unanswered", []):
        write(f"  WITHOUT AN ANSWER: {name}")
    if results:
        print_verdict(results, write)
    for decision in results.get("decisions", []):
        write(
            f"  KEY DECISION {decision['id']} ({decision['role']}): {decision['text']} — {decision.get('outcome') or 'not compared'}"
        )
    write(f"Status: {debate.status}")
    artifact = debate_artifact(debate)
    if artifact:
        note = "" if results.get("synthesised", True) else " (the synthesis failed: the two revised answers)"
        write(f"\n===== Artifact: {results.get('title', '')}{note} =====\n")
        write(artifact)
