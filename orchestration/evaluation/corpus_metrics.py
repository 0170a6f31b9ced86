"""What the truth corpus measures (evaluation/corpus/README.md, "The metrics"), from one run's
observed record and its scenario's ``expect``. Pure: the corpus's types and plain dicts in, plain
dicts out; every figure can move both ways. Summed per mode by ``mode_summary``.

The observed record (corpus_run.py) holds what the app reported: its verdict key and its results,
the Analyst/Critic rounds (round_scored payloads), the crux cards' questions, the proposals, the
circling notices, every name it recorded, the forbidden phrases its stored speech holds with the
surfaces they reach, what memory it recalled and whether it reached each role's prompts; and the
runner's own bookkeeping: which scenario label the reader created each ledger wording for, which
utterance the app said at each main-channel turn.
"""

from __future__ import annotations

from evaluation.corpus.loader import AGREEMENT_VERDICTS, ANALYST_CRITIC, COLLABORATE, Scenario
from orchestration.evaluation.corpus_stage import wording_key

# The app's verdict keys that report an agreement (debates/regime.py; a conditional agreement once
# the app has one).
AGREEMENT_KEYS = frozenset(["consensus", "conditional", "conditional_agreement"])
ROLE_TITLES = frozenset(["Analyst", "Critic", "Architect", "Reviewer", "Synthesis"])
CLOSED = {"refined": "superseded", "withdrawn": "withdrawn", "negated": "negated", "superseded": "negated"}
HELD = ("agreed", "contested", "unverifiable")
_NEGATORS = frozenset(["not", "no", "never", "neither", "nor", "cannot"])


def _negative(text: str) -> bool:
    words = (text or "").lower().replace("’", "'").split()
    return any(word.strip(".,;:") in _NEGATORS or word.endswith("n't") for word in words)


def finds(text: str, keywords) -> bool:
    lowered = (text or "").lower()
    return bool(keywords) and all(keyword.lower() in lowered for keyword in keywords)


# ── every mode ────────────────────────────────────────────────────────────────────────────────


def consensus_errors(s: Scenario, observed: dict) -> dict:
    reported = observed.get("verdict") in AGREEMENT_KEYS
    return {
        "reported_agreement": reported,
        "fake_consensus": reported and not s.expect.agreement,
        "missed_consensus": not reported and s.expect.agreement,
    }


def ghost_names(s: Scenario, observed: dict) -> list[str]:
    """Every recorded name that is neither a participant's nor a seat's title, with where."""
    known = set(s.names()) | ROLE_TITLES
    return sorted({f"{name} ({where})" for where, name in observed.get("names", []) if name and name not in known})


# ── Analyst/Critic ────────────────────────────────────────────────────────────────────────────


def point_label(s: Scenario, point: dict, labels: dict[str, str]) -> str | None:
    """Which scenario point a ledger point stands for: the reader's bookkeeping (the label it
    created that wording for); for a ledger it did not word, the label whose keywords it holds
    (the most keywords wins)."""
    label = labels.get(wording_key(point.get("text", "")))
    if label is not None:
        return label
    best, best_count = None, 0
    for name, outcome in s.expect.points.items():
        count = sum(1 for keyword in outcome.keywords if keyword.lower() in point.get("text", "").lower())
        if count == len(outcome.keywords) and count > best_count:
            best, best_count = name, count
    return best


def analyst_critic_metrics(s: Scenario, observed: dict) -> dict:
    rounds = [r for r in observed.get("rounds", []) if r.get("round", 0) >= 1]
    points = rounds[-1].get("points", []) if rounds else []
    labels = observed.get("labels", {})
    labelled = [(point, point_label(s, point, labels)) for point in points if not point.get("from_memory")]
    held = [(point, label) for point, label in labelled if point.get("status") in HELD]
    twice = []
    for label in {label for _, label in held if label}:
        copies = [point for point, other in held if other == label]
        expected = s.expect.points[label].status if label in s.expect.points else None
        extra = len(copies) - 1 + (1 if expected in ("superseded", "withdrawn", "negated") else 0)
        twice += [f"{label}: {point['text']}" for point in copies[: max(0, extra)]]
    inverted = []
    for point, label in held:
        if label not in s.expect.points or point["status"] == "unverifiable":
            continue
        truth = s.expect.points[label].status
        # A wording the reader gave is its label's; one it did not (a code that rewords) may be
        # the point's negation: read with its wording, as truth_metrics.inverted_points does.
        bookkept = wording_key(point["text"]) in labels
        agreed = (point["status"] == "agreed") != (not bookkept and _negative(point["text"]))
        if (agreed and truth in ("contested", "unverifiable")) or (not agreed and truth == "agreed"):
            inverted.append(f"{label} [{point['status']}] {point['text']}")
    statuses = {}
    for label, outcome in s.expect.points.items():
        mine = [point for point, other in labelled if other == label]
        status = mine[-1]["status"] if mine else "missing"
        status = CLOSED.get(status, status)
        statuses[label] = {"expected": outcome.status, "reported": status}
    first = next((r["round"] for r in rounds if r.get("consensus")), None)
    expected_round = s.expect.consensus_round
    unassessed = sorted(r["round"] for r in rounds if not r.get("assessed", True))
    played = {r["round"] for r in rounds}
    return {
        "rounds": len(rounds),
        "consensus_round": first,
        "consensus_late": first is not None and expected_round is not None and first > expected_round,
        "consensus_early": first is not None and (expected_round is None or first < expected_round),
        "points_twice": twice,
        "inverted": inverted,
        "statuses_wrong": sorted(label for label, row in statuses.items() if row["expected"] != row["reported"]),
        "statuses": statuses,
        "unassessed": unassessed,
        "unassessed_wrong": sorted(set(unassessed) ^ (set(s.expect.unassessed_rounds) & played)),
        "refused": [line for r in rounds for line in r.get("refused", [])],
    }


# ── dialogue and graph ────────────────────────────────────────────────────────────────────────


def discussion_metrics(s: Scenario, observed: dict) -> dict:
    e = s.expect
    sides = observed.get("final_sides") or {}
    lost = []
    for question, expected in e.final_sides.items():
        for name, side in expected.items():
            reported = sides.get(name) or "none"
            if reported != side:
                lost.append(f"{question} {name}: {side} recorded as {reported}")
    reported = observed.get("cruxes", [])
    found = [c.question for c in e.cruxes if any(finds(text, c.keywords) for text in reported)]
    decoys = [text for text in reported if any(finds(text, d.keywords) for d in e.decoys)]
    real = [text for text in reported if any(finds(text, c.keywords) for c in e.cruxes)]
    noticed = observed.get("circling_at")  # the scenario turn the app noticed circling at, or None
    proposals = observed.get("proposals", {})
    return {
        "answers_lost": lost,
        "cruxes_reported": len(reported),
        "crux_precision": round(len(real) / len(reported), 3) if reported else None,
        "crux_recall": round(len(found) / len(e.cruxes), 3) if e.cruxes else None,
        "decoys_taken": decoys,
        "circling_missed": e.circling
        and (noticed is None or (e.circling_by_turn is not None and noticed > e.circling_by_turn)),
        "circling_false": not e.circling and noticed is not None,
        "proposals_wrong": sorted(
            f"{label}: {status} recorded as {proposals.get(label, 'missing')}"
            for label, status in e.proposals.items()
            if proposals.get(label, "missing") != status
        ),
        "decided_on": observed.get("decided_on"),
    }


# ── Collaborate ───────────────────────────────────────────────────────────────────────────────


def collaborate_metrics(s: Scenario, observed: dict) -> dict:
    decisions = observed.get("decisions")  # None: the app records no per-decision outcome
    wrong = None
    if decisions is not None:
        wrong = sorted(label for label, status in s.expect.decisions.items() if decisions.get(label) != status)
    return {"decisions_wrong": wrong}


# ── one run, and a mode's runs ────────────────────────────────────────────────────────────────


def run_metrics(s: Scenario, observed: dict) -> dict:
    memory = observed.get("memory", {})
    metrics = {
        **consensus_errors(s, observed),
        "ghost_names": ghost_names(s, observed),
        "forbidden_on_surfaces": observed.get("forbidden", []),
        "forbidden_in_speech": len(s.expect.forbidden_in_speech),
        "recalled_missing": [m for m in s.expect.recalled if m not in memory.get("recalled", [])],
        "recalled_not_in_prompts": [
            f"{m}: {', '.join(roles)}"
            for m, roles in memory.get("missing_from", {}).items()
            if m in s.expect.recalled and roles
        ],
    }
    if s.mode == ANALYST_CRITIC:
        metrics["analyst_critic"] = analyst_critic_metrics(s, observed)
    elif s.mode == COLLABORATE:
        metrics["collaborate"] = collaborate_metrics(s, observed)
    else:
        metrics["discussion"] = discussion_metrics(s, observed)
    return metrics


def mode_summary(runs: list[dict]) -> dict:
    """runs: [{"scenario": Scenario, "record": {...metrics}}] of one mode."""
    no_agreement = [r for r in runs if not r["scenario"].expect.agreement]
    agreement = [r for r in runs if r["scenario"].expect.agreement]
    metrics = [r["record"]["metrics"] for r in runs]
    summary = {
        "scenarios": len(runs),
        "failed_runs": sum(1 for r in runs if r["record"]["status"] != "completed"),
        "fake_consensus": sum(1 for r in no_agreement if r["record"]["metrics"]["fake_consensus"]),
        "could_fake": len(no_agreement),
        "missed_consensus": sum(1 for r in agreement if r["record"]["metrics"]["missed_consensus"]),
        "could_miss": len(agreement),
        "ghost_names": sum(len(m["ghost_names"]) for m in metrics),
        "forbidden_on_surfaces": sum(len(m["forbidden_on_surfaces"]) for m in metrics),
        "forbidden_in_speech": sum(m["forbidden_in_speech"] for m in metrics),
        "recalled_missing": sum(len(m["recalled_missing"]) for m in metrics),
        "recalled_not_in_prompts": sum(len(m["recalled_not_in_prompts"]) for m in metrics),
    }
    ac = [m["analyst_critic"] for m in metrics if "analyst_critic" in m]
    if ac:
        summary |= {
            "points_twice": sum(len(m["points_twice"]) for m in ac),
            "inverted_points": sum(len(m["inverted"]) for m in ac),
            "statuses_wrong": sum(len(m["statuses_wrong"]) for m in ac),
            "consensus_late": sum(1 for m in ac if m["consensus_late"]),
            "consensus_early": sum(1 for m in ac if m["consensus_early"]),
            "unassessed_wrong": sum(len(m["unassessed_wrong"]) for m in ac),
        }
    talk = [m["discussion"] for m in metrics if "discussion" in m]
    if talk:
        reported = sum(m["cruxes_reported"] for m in talk)
        precise = sum(round((m["crux_precision"] or 0) * m["cruxes_reported"]) for m in talk)
        summary |= {
            "answers_lost": sum(len(m["answers_lost"]) for m in talk),
            "cruxes_reported": reported,
            "crux_precision": round(precise / reported, 3) if reported else None,
            "decoys_taken": sum(len(m["decoys_taken"]) for m in talk),
            "circling_missed": sum(1 for m in talk if m["circling_missed"]),
            "circling_false": sum(1 for m in talk if m["circling_false"]),
            "proposals_wrong": sum(len(m["proposals_wrong"]) for m in talk),
        }
    collab = [m["collaborate"] for m in metrics if "collaborate" in m]
    if collab:
        recorded = [m["decisions_wrong"] for m in collab if m["decisions_wrong"] is not None]
        summary["decisions_wrong"] = sum(len(w) for w in recorded) if recorded else None
    return summary


__all__ = ["AGREEMENT_VERDICTS", "mode_summary", "run_metrics"]
