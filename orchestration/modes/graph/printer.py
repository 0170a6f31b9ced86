"""``rundebate``'s lines for a graph debate: the verdict, the argument map, the status."""

from __future__ import annotations

from debates.models import Debate
from orchestration.modes.printing import Write, print_verdict


def print_graph(debate: Debate, write: Write) -> None:
    if debate.results:
        print_verdict(debate.results, write)
        if graph := debate.results.get("graph"):
            _print_map(graph, write)
    write(f"Status: {debate.status}")


def _print_map(graph: dict, write: Write) -> None:
    counts = graph.get("counts", {})
    write(f"Argument map: {counts.get('IN', 0)} IN, {counts.get('OUT', 0)} OUT, {counts.get('UNDEC', 0)} UNDEC")
    for item in graph.get("common_ground", []):
        write(f"  COMMON GROUND: {item['text']} ({item['holder']})")
    for number, camp in enumerate(graph.get("camps", []), start=1):
        write(
            f"  CAMP {number} ({', '.join(camp['personas']) or '-'}): "
            + "; ".join(argument["text"] for argument in camp["arguments"])
        )
    for item in graph.get("crux_assumptions", []):
        write(f"  CRUX ASSUMPTION: {item['assumption']} — settle it by asking: {item['settling_question']}")
    for item in graph.get("concession_trail", []):
        write(
            f"  CONCESSION (round {item['round']}): {item['persona']} {item.get('effect', 'conceded')} "
            f'"{item["target_text"]}"'
        )
