"""What the truth suite measures, from each run's record and its scenario's ground truth. Pure:
plain dicts in, plain dicts out; every rate can move both ways.

Per mode:
- crux precision and recall: the cruxes a run reported (dialogue: crux cards; graph: the map's
  cards; Analyst/Critic: the points still contested; Collaborate: the artifact's open questions)
  against the scenario's real cruxes (a reported crux finds one when it holds every keyword). A
  decoy the pipeline took for a crux lowers precision; a real crux it missed lowers recall;
- inverted points (Analyst/Critic): ledger points whose status, read with their wording, says the
  opposite of the Critic's real verdict ("Gold protects savers" agreed, when the Critic agreed that
  it does not) ÷ ledger points about a known proposition;
- fake consensus: a consensus reported where the debate did not reach one (they disagree, or it is
  undetermined) ÷ such debates; missed consensus: none reported where they agree ÷ such debates;
- false facts: established facts recalled for topics unrelated to anything the owner debated ÷
  unrelated topics probed (and, the other way, related topics that recalled none);
- graph vs dialogue: the same scenarios' crux precision and recall in each mode.
"""

from __future__ import annotations

import re

CONSENSUS = "consensus"
AGREE = "agree"
_NEGATORS = frozenset(["not", "no", "never", "neither", "nor", "cannot"])


def finds(text: str, keywords) -> bool:
    lowered = (text or "").lower()
    return all(keyword.lower() in lowered for keyword in keywords)


def crux_quality(reported: list[str], cruxes: list[dict]) -> dict:
    """reported: the texts of the cruxes a run reported; cruxes: [{"question", "keywords"}]."""
    found = [c["question"] for c in cruxes if any(finds(text, c["keywords"]) for text in reported)]
    invented = [text for text in reported if not any(finds(text, c["keywords"]) for c in cruxes)]
    return {
        "found": found,
        "invented": invented,
        "precision": round((len(reported) - len(invented)) / len(reported), 3) if reported else None,
        "recall": round(len(found) / len(cruxes), 3) if cruxes else None,
    }


def consensus_errors(*, expect: str, outcome: str) -> dict:
    return {
        "fake_consensus": expect != AGREE and outcome == CONSENSUS,
        "missed_consensus": expect == AGREE and outcome != CONSENSUS,
    }


def negative(text: str) -> bool:
    """The statement is worded as a denial ("does not", "isn't", "never")."""
    words = re.findall(r"[a-z']+", (text or "").lower().replace("’", "'"))
    return any(word in _NEGATORS or word.endswith("n't") for word in words)


def inverted_points(points: list[dict], truth: list[dict]) -> dict:
    """points: the final ledger [{"text", "status"}]; truth: [{"keywords", "accepted"}], the Critic's
    real verdict on each proposition in the affirmative. An agreed point says its wording was
    accepted, a contested one that it was rejected; unverifiable points say neither."""
    judged, inverted = [], []
    for point in points:
        if point.get("status") not in ("agreed", "contested"):
            continue
        proposition = next((t for t in truth if finds(point["text"], t["keywords"])), None)
        if proposition is None:
            continue
        judged.append(point["text"])
        accepted_as_worded = point["status"] == "agreed"
        says_affirmative_accepted = accepted_as_worded != negative(point["text"])
        if says_affirmative_accepted != proposition["accepted"]:
            inverted.append(f"[{point['status']}] {point['text']}")
    return {"judged": len(judged), "inverted": inverted}


def recall_errors(probes: list[dict]) -> dict:
    """probes: [{"topic", "related": bool, "facts": [text, ...]}]."""
    unrelated = [p for p in probes if not p["related"]]
    related = [p for p in probes if p["related"]]
    false = [f"{p['topic']} <- {fact}" for p in unrelated for fact in p["facts"]]
    return {
        "unrelated_topics": len(unrelated),
        "false_facts": len(false),
        "false_fact_examples": false[:5],
        "related_topics": len(related),
        "related_topics_without_facts": len([p for p in related if not p["facts"]]),
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def mode_summary(records: list[dict]) -> dict:
    """Every run of one mode (records carry "metrics" from ``run_metrics``)."""
    metrics = [r["metrics"] for r in records]
    reported = sum(len(m["cruxes"]["found_by"]) + len(m["cruxes"]["invented"]) for m in metrics)
    invented = sum(len(m["cruxes"]["invented"]) for m in metrics)
    planted = sum(m["cruxes"]["planted"] for m in metrics)
    found = sum(len(m["cruxes"]["found"]) for m in metrics)
    not_agreeing = [r for r in records if r["expect"] != AGREE]
    agreeing = [r for r in records if r["expect"] == AGREE]
    judged = sum(m["points"]["judged"] for m in metrics)
    inverted = sum(len(m["points"]["inverted"]) for m in metrics)
    probes = [p for r in records for p in r.get("probes", [])]
    memory = recall_errors(probes)
    return {
        "debates": len(records),
        "failed": len([r for r in records if r["status"] != "completed"]),
        "crux_precision": _rate(reported - invented, reported),
        "crux_recall": _rate(found, planted),
        "cruxes_reported": reported,
        "decoys_taken_for_cruxes": invented,
        "inverted_points": inverted,
        "points_judged": judged,
        "inverted_point_rate": _rate(inverted, judged),
        "fake_consensus": len([r for r in not_agreeing if r["metrics"]["fake_consensus"]]),
        "fake_consensus_rate": _rate(
            len([r for r in not_agreeing if r["metrics"]["fake_consensus"]]), len(not_agreeing)
        ),
        "missed_consensus": len([r for r in agreeing if r["metrics"]["missed_consensus"]]),
        "missed_consensus_rate": _rate(len([r for r in agreeing if r["metrics"]["missed_consensus"]]), len(agreeing)),
        "false_facts": memory["false_facts"],
        "false_fact_rate": _rate(memory["false_facts"], memory["unrelated_topics"]),
        "unrelated_topics_probed": memory["unrelated_topics"],
        "related_topics_without_facts": memory["related_topics_without_facts"],
    }


def run_metrics(
    *, expect: str, outcome: str, reported: list[str], cruxes: list[dict], points: list[dict], truth: list[dict]
) -> dict:
    quality = crux_quality(reported, cruxes)
    return {
        "outcome": outcome,
        **consensus_errors(expect=expect, outcome=outcome),
        "cruxes": {
            "planted": len(cruxes),
            "found": quality["found"],
            "found_by": [text for text in reported if text not in quality["invented"]],
            "invented": quality["invented"],
            "precision": quality["precision"],
            "recall": quality["recall"],
        },
        "points": inverted_points(points, truth),
    }


def graph_vs_dialogue(records: list[dict], shared: list[str]) -> dict:
    """The same scenarios' crux quality in the graph and the dialogue mode (the graph seed's step 5)."""
    rows = {}
    for name in shared:
        row = {}
        for mode in ("dialogue", "graph"):
            runs = [r for r in records if r["scenario"] == name and r["mode"] == mode]
            if runs:
                summary = mode_summary(runs)
                row[mode] = {
                    "crux_precision": summary["crux_precision"],
                    "crux_recall": summary["crux_recall"],
                    "cruxes_reported": summary["cruxes_reported"],
                    "outcome": runs[0]["metrics"]["outcome"],
                }
        rows[name] = row
    return rows


def truth_summary(records: list[dict], *, modes: list[str], shared: list[str]) -> dict:
    by_mode = {mode: mode_summary([r for r in records if r["mode"] == mode]) for mode in modes}
    everything = mode_summary(records)
    return {
        "modes": by_mode,
        "all_modes": everything,
        "graph_vs_dialogue": graph_vs_dialogue(records, shared),
    }
