"""The truth corpus's report as text (corpus_run.py's report): one line of headline figures per
mode (issue 39's "done when"), the mode's own figures, then what each run found. Self-contained, so
the corpus can be reported for any commit the runner is played against (benchmarks/corpus_at_647f5f1.py)."""

from __future__ import annotations


def _plain(value) -> str:
    if value is None:
        return "–"
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, float) and value else str(value)


CORPUS_EXTRAS = {
    "analyst_critic": (
        ("points_twice", "points listed twice"),
        ("inverted_points", "inverted points"),
        ("statuses_wrong", "final statuses wrong"),
        ("consensus_late", "consensus late"),
        ("consensus_early", "consensus early"),
        ("unassessed_wrong", "unassessed rounds wrong"),
    ),
    "dialogue": (
        ("answers_lost", "final answers not as said"),
        ("crux_precision", "crux precision"),
        ("decoys_taken", "decoys taken for cruxes"),
        ("circling_missed", "circling missed"),
        ("circling_false", "circling seen where none"),
        ("proposals_wrong", "proposals wrong"),
    ),
    "collaborate": (("decisions_wrong", "key decisions wrong (– : the app records none)"),),
}
CORPUS_EXTRAS["graph"] = CORPUS_EXTRAS["dialogue"]


def corpus_report_text(report: dict) -> str:
    """The truth corpus per mode: the headline figures, the mode's own, then each run's findings."""
    runs = report["runs"]
    apart = " (held-out scenarios)" if report.get("held_out") else ""
    lines = [
        f"Truth corpus{apart} · {report['corpus']} · model {report['model']} · {len(runs)} scenarios · "
        f"{report['seconds']} s · commit {report.get('commit', '')}"
    ]
    for mode, row in report["modes"].items():
        lines.append(
            f"{mode} ({row['scenarios']} scenarios, {row['failed_runs']} failed runs): "
            f"fake consensus {row['fake_consensus']} of {row['could_fake']}, "
            f"missed consensus {row['missed_consensus']} of {row['could_miss']}, "
            f"names that are not participants {row['ghost_names']}, "
            f"forbidden phrases on surfaces {row['forbidden_on_surfaces']} ({row['forbidden_in_speech']} in the raw speech), "
            f"recalled memory missing {row['recalled_missing']}, not in every role's prompts {row['recalled_not_in_prompts']}"
        )
        extras = ", ".join(f"{label} {_plain(row[key])}" for key, label in CORPUS_EXTRAS.get(mode, ()) if key in row)
        if extras:
            lines.append(f"    {extras}")
    lines.append("Runs:")
    for record in runs:
        lines.append(
            f"  {record['scenario']}: {record['status']}, expected {record['expected']}, reported "
            f"{record['verdict'] or '–'}, {record['seconds']} s"
        )
        lines += [f"    {finding}" for finding in _corpus_findings(record)]
    return "\n".join(lines) + "\n"


def _corpus_findings(record: dict) -> list[str]:
    m = record["metrics"]
    found = [flag.replace("_", " ") for flag in ("fake_consensus", "missed_consensus") if m[flag]]
    found += [f"ghost name: {name}" for name in m["ghost_names"]]
    found += [
        f"forbidden “{hit['phrase']}” ({hit['where']}) on {', '.join(hit['surfaces'])}"
        for hit in m["forbidden_on_surfaces"]
    ]
    found += [f"memory {label} not recalled" for label in m["recalled_missing"]]
    found += [f"memory {line} missing from prompts" for line in m["recalled_not_in_prompts"]]
    if ac := m.get("analyst_critic"):
        expected = ac["consensus_round"]
        found.append(f"rounds {ac['rounds']}, consensus in round {_plain(expected)}")
        found += [f"listed twice: {p}" for p in ac["points_twice"]]
        found += [f"inverted: {p}" for p in ac["inverted"]]
        found += [
            f"status of {label}: {ac['statuses'][label]['reported']}, expected {ac['statuses'][label]['expected']}"
            for label in ac["statuses_wrong"]
        ]
        found += (
            [f"unassessed rounds {ac['unassessed']} (wrong: {ac['unassessed_wrong']})"]
            if ac["unassessed_wrong"]
            else []
        )
        found += [f"refused: {line}" for line in ac["refused"]]
    if talk := m.get("discussion"):
        found += talk["answers_lost"] + [f"decoy taken: {d}" for d in talk["decoys_taken"]] + talk["proposals_wrong"]
        found += ["circling missed"] if talk["circling_missed"] else []
        found += ["circling seen where there is none"] if talk["circling_false"] else []
    if record.get("unsaid"):
        found.append(f"lines never asked for: {', '.join(record['unsaid'])}")
    if record.get("unanswered_calls"):
        found.append(f"calls the reader has no answer for: {record['unanswered_calls']}")
    if record.get("failure"):
        found.append(f"failure: {record['failure']}")
    return found
