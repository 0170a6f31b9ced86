"""The evaluation report as one self-contained HTML page (inline SVG charts, no scripts) and JSON.

Everything a model wrote (card questions, sides) is escaped: a report is opened in a browser.
"""

from __future__ import annotations

import json
from html import escape

WIDTH, BAR_HEIGHT = 360, 16
COLOURS = ["#2f6fde", "#d9534f", "#3c9d5d", "#b8860b", "#7d4cc2", "#555"]


def report_json(report: dict) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False, default=str)


def _fmt(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value else "0"
    return escape(str(value))


def _bars(rows: list[tuple[str, float | None]], *, maximum: float = 1.0, title: str) -> str:
    """Horizontal bars, one per (label, value); a missing value is drawn as a dash."""
    height = BAR_HEIGHT * len(rows) + 24
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH + 260} {height}" role="img" aria-label="{escape(title)}">',
        f'<text x="0" y="12" class="chart-title">{escape(title)}</text>',
    ]
    for index, (label, value) in enumerate(rows):
        y = 20 + index * BAR_HEIGHT
        parts.append(f'<text x="0" y="{y + 12}">{escape(label)}</text>')
        if value is not None:
            width = max(1.0, WIDTH * min(value, maximum) / maximum)
            parts.append(f'<rect x="200" y="{y + 2}" width="{width:.1f}" height="{BAR_HEIGHT - 4}" fill="#2f6fde"/>')
        parts.append(f'<text x="{WIDTH + 205}" y="{y + 12}">{_fmt(value)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _lines(series: dict[str, list[float | None]], *, maximum: float, title: str) -> str:
    """One polyline per series over rounds (entropy per round)."""
    longest = max((len(values) for values in series.values()), default=0)
    if longest < 2:
        return ""
    height, left, plot_w, plot_h = 200, 40, WIDTH, 140
    step = plot_w / (longest - 1)
    parts = [
        f'<svg class="chart" viewBox="0 0 {left + plot_w + 200} {height}" role="img" aria-label="{escape(title)}">',
        f'<text x="0" y="12" class="chart-title">{escape(title)}</text>',
        f'<line x1="{left}" y1="{20 + plot_h}" x2="{left + plot_w}" y2="{20 + plot_h}" stroke="#999"/>',
        f'<text x="0" y="24">{maximum:g}</text><text x="0" y="{20 + plot_h}">0</text>',
    ]
    for index, (name, values) in enumerate(series.items()):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(
            f"{left + i * step:.1f},{20 + plot_h - plot_h * v / maximum:.1f}"
            for i, v in enumerate(values)
            if v is not None
        )
        if points:
            parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{left + plot_w + 10}" y="{30 + 16 * index}" fill="{colour}">{escape(name)}</text>')
    parts.append(f'<text x="{left}" y="{height - 8}">round →</text></svg>')
    return "".join(parts)


def _mean_series(debates: list[dict]) -> dict[str, list[float | None]]:
    by_scenario: dict[str, list[list[float | None]]] = {}
    for debate in debates:
        by_scenario.setdefault(debate["scenario"], []).append(debate["metrics"]["entropy_by_round"])
    series = {}
    for scenario, runs in by_scenario.items():
        longest = max(len(run) for run in runs)
        values = []
        for index in range(longest):
            known = [run[index] for run in runs if index < len(run) and run[index] is not None]
            values.append(sum(known) / len(known) if known else None)
        series[scenario] = values
    return series


def report_html(report: dict) -> str:
    summary, debates = report["summary"], report["debates"]
    scenarios = list(dict.fromkeys(d["scenario"] for d in debates))

    def per_scenario(key: str) -> list[tuple[str, float | None]]:
        rows = []
        for name in scenarios:
            values = [d["metrics"][key] for d in debates if d["scenario"] == name and d["metrics"][key] is not None]
            rows.append((name, sum(values) / len(values) if values else None))
        return rows

    summary_rows = "".join(f"<tr><th>{escape(k)}</th><td>{_fmt(v)}</td></tr>" for k, v in summary.items())
    threshold_rows = "".join(
        f"<tr><th>{escape(k)}</th><td>{_fmt(v)}</td></tr>" for k, v in report["thresholds"].items()
    )
    debate_rows = "".join(
        "<tr>"
        f"<td>{escape(d['scenario'])}</td><td>{d['seed']}</td><td>{escape(d['expect'])}</td>"
        f"<td>{escape(d['metrics']['regime'])}</td><td>{_fmt(d['metrics']['recall'])}</td>"
        f"<td>{_fmt(d['metrics']['precision'])}</td><td>{d['metrics']['duplicate_rooms']}</td>"
        f"<td>{_fmt(d['metrics']['crux_compression'])}</td><td>{sum(d['metrics']['page_leaks'].values())}</td>"
        f"<td>{d['metrics']['model_calls']}</td><td>{d['metrics']['input_tokens'] + d['metrics']['output_tokens']}</td>"
        f"<td>{_fmt(d['metrics']['cost_usd'])}</td>"
        f"<td>{'<br>'.join(escape(c['question']) for c in d['cards']) or '–'}</td>"
        "</tr>"
        for d in debates
    )
    sweep = ""
    if report.get("sweep"):
        sweep_rows = "".join(
            f"<tr><td>{escape(str(row['setting']))}={escape(str(row['value']))}</td><td>{_fmt(row['recall'])}</td>"
            f"<td>{_fmt(row['precision'])}</td><td>{_fmt(row['fake_consensus_rate'])}</td>"
            f"<td>{_fmt(row['fake_consensus_rate_by_cards_alone'])}</td>"
            f"<td>{row['duplicate_rooms']}</td><td>{_fmt(row['crux_compression'])}</td></tr>"
            for row in report["sweep"]
        )
        sweep = (
            "<h2>Threshold sweep</h2><table><tr><th>setting</th><th>recall</th><th>precision</th>"
            f"<th>fake consensus</th><th>… by cards alone</th><th>duplicate rooms</th><th>compression</th></tr>{sweep_rows}</table>"
        )
    judge = ""
    if report.get("judge"):
        judge = (
            f"<h2>LLM judge (opinion, not ground truth)</h2><pre>{escape(json.dumps(report['judge'], indent=2))}</pre>"
        )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Faultline quality: {escape(report["suite"])} / {escape(report["model"])}</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 2em; max-width: 1100px; }}
table {{ border-collapse: collapse; margin: 1em 0; }} td, th {{ border: 1px solid #ccc; padding: 3px 8px; text-align: left; }}
.chart {{ display: block; max-width: 640px; margin: 1em 0; font-size: 12px; }} .chart-title {{ font-weight: bold; }}
</style></head><body>
<h1>Debate quality: suite <code>{escape(report["suite"])}</code>, model <code>{escape(report["model"])}</code></h1>
<p>Commit {escape(str(report.get("commit", "")))} · seeds {escape(", ".join(map(str, report["seeds"])))} ·
{escape(str(report.get("created", "")))}</p>
<h2>Summary</h2><table>{summary_rows}</table>
{_bars(per_scenario("recall"), title="Planted-crux recall by scenario")}
{_bars(per_scenario("precision"), title="Precision (cards on a planted crux) by scenario")}
{_bars([(n, sum(1 for d in debates if d["scenario"] == n and d["metrics"]["fake_consensus"]) / max(1, sum(1 for d in debates if d["scenario"] == n))) for n in scenarios], title="Fake-consensus rate by scenario")}
{_lines(_mean_series(debates), maximum=1.6, title="Disagreement entropy per round (bits, mean over seeds)")}
<h2>Detection thresholds</h2><table>{threshold_rows}</table>
{sweep}
<h2>Debates</h2>
<table><tr><th>scenario</th><th>seed</th><th>expect</th><th>regime</th><th>recall</th><th>precision</th>
<th>dup. rooms</th><th>compression</th><th>page leaks</th><th>calls</th><th>tokens</th><th>cost $</th><th>cards</th></tr>
{debate_rows}</table>
{judge}
</body></html>
"""


TRUTH_COLUMNS = (
    ("crux_precision", "crux precision"),
    ("crux_recall", "crux recall"),
    ("decoys_taken_for_cruxes", "decoys taken"),
    ("inverted_points", "inverted points"),
    ("inverted_point_rate", "inverted rate"),
    ("fake_consensus", "fake consensus"),
    ("fake_consensus_rate", "fake rate"),
    ("missed_consensus", "missed consensus"),
    ("missed_consensus_rate", "missed rate"),
    ("false_facts", "false facts"),
    ("false_fact_rate", "false-fact rate"),
)


def truth_report_text(report: dict) -> str:
    """The truth suite in a few lines: one row per mode, graph against dialogue, each run."""
    lines = [f"Truth suite · model {report['model']} · {report['seconds']} s · commit {report.get('commit', '')}"]
    header = f"{'mode':<16}" + "".join(f"{label:>18}" for _, label in TRUTH_COLUMNS)
    lines.append(header)
    for mode, row in report["modes"].items():
        lines.append(f"{mode:<16}" + "".join(f"{_plain(row[key]):>18}" for key, _ in TRUTH_COLUMNS))
    lines.append("Graph vs dialogue (crux precision / recall on the same scenarios):")
    for name, row in report["graph_vs_dialogue"].items():
        if not row:
            continue
        cells = ", ".join(
            f"{mode} {_plain(v['crux_precision'])} / {_plain(v['crux_recall'])} ({v['outcome']})"
            for mode, v in row.items()
        )
        lines.append(f"  {name}: {cells}")
    lines.append("Runs:")
    for record in report["debates"]:
        m = record["metrics"]
        flags = [flag for flag in ("fake_consensus", "missed_consensus") if m[flag]]
        flags += [f"inverted: {p}" for p in m["points"]["inverted"]]
        flags += [f"decoy: {c}" for c in m["cruxes"]["invented"]]
        lines.append(
            f"  {record['scenario']} ({record['mode']}): {record['status']}, expected {record['expect']}, got "
            f"{m['outcome']}" + (f" — {'; '.join(flags)}" if flags else "")
        )
        for probe in record.get("probes", []):
            if probe["facts"] and not probe["related"]:
                lines.append(f"    false facts for {probe['topic']!r}: {len(probe['facts'])}")
    return "\n".join(lines) + "\n"


def _plain(value) -> str:
    if value is None:
        return "–"
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, float) and value else str(value)
