"""A debate as a Markdown transcript or a JSON document, both from the folded event log.

Model text is untrusted. In Markdown it is neutralised so it can never become live markup in a
viewer that renders inline HTML: &, < and > become entities, and backslashes and square brackets
are backslash-escaped so no link or image can form. In JSON it stays verbatim (it is data), with
<, > and & written as \\u escapes so the file is inert even if something sniffs it as HTML.
"""

from __future__ import annotations

import dataclasses
import json
import re

from debates.activity import counts_words, dialogue_turns
from debates.faultline_map import FaultlineMap
from debates.models import Debate
from debates.modes import mode_label
from debates.payloads import EventKind
from debates.regime import CRUX_WORDS, SIDE_LABELS, regime_label, verdict_sentence
from debates.state import DebateView, fold, unanswered_notice

JSON_FORMAT = "faultline-debate/1"


# Every character str.splitlines() breaks on: a topic or a name with one of these must not start
# a new Markdown line (a fake heading, a fake list item).
LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


def _md_neutralise(text) -> str:
    text = str(text if text is not None else "")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def md_escape(text) -> str:
    """A single-line field (topic, name, question...): neutralised, its line breaks made spaces."""
    return LINE_BREAKS.sub(" ", _md_neutralise(text))


def _quote(text) -> str:
    lines = _md_neutralise(text).splitlines() or [""]
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _message_md(message) -> list[str]:
    header = f"**{md_escape(message.persona_name)}** · {md_escape(message.kind.replace('_', ' '))}"
    if message.streaming:
        header += " · (unfinished)"
    elif message.cut_off:
        header += " · (cut off at the length limit)"
    if notice := unanswered_notice(message):
        return [header, f"_{md_escape(notice)}_", ""]
    cited = [
        f"> — {md_escape(c.get('tag', ''))}: “{md_escape(c.get('excerpt', ''))}” ({md_escape(c.get('source', ''))})"
        for c in getattr(message, "citations", None) or []
    ]
    return [header, _quote(message.text), *([">", *cited] if cited else []), ""]


def _interjection_md(interjection) -> list[str]:
    """The owner's interjection in the main channel: what they said, to whom, and who answered."""
    to = f" to {md_escape(interjection.to_name)}" if interjection.to_name else ""
    header = f"**The owner** · {md_escape(interjection.kind)}{to}"
    lines = [header, _quote(interjection.text)]
    if interjection.link:
        lines.append(f"> Link: {md_escape(interjection.link)}")
    if interjection.document_title:
        lines.append(f"> Document: {md_escape(interjection.document_title)}")
    return [*lines, f"_{_answered_line(interjection)}_", ""]


def _answered_line(interjection) -> str:
    if interjection.answered_by:
        return f"answered by {md_escape(interjection.answered_by)}"
    return "not answered"


def _interjections_md(view: DebateView) -> list[str]:
    """The results' list of the owner's interjections and what answered them."""
    if not view.interjections:
        return []
    lines = ["## Interjections", ""]
    for interjection in view.interjections:
        lines.append(
            f"- {md_escape(interjection.kind)}: {md_escape(interjection.text)} ({_answered_line(interjection)})"
        )
    return [*lines, ""]


def _card_md(card) -> list[str]:
    lines = [f"### {card.suit} {md_escape(card.question)}", ""]
    lines.append(f"- Disagreement type: {md_escape(card.disagreement_type)}")
    for position in card.positions:
        line = (
            f"- **{md_escape(position.get('name', ''))}**: {md_escape(position.get('position', ''))}"
            f" — {md_escape(position.get('reasoning', ''))}"
        )
        if position.get("falsifier"):
            line += f" (would change their mind if: {md_escape(position['falsifier'])})"
        lines.append(line)
    lines.append(f"- Diagnosis: {md_escape(card.diagnosis)}")
    if card.resolved:
        lines.append(f"- Resolved: {md_escape(card.resolution)}")
    else:
        lines.append("- Unresolved")
    lines.append("")
    return lines


def _list(value) -> list:
    return value if isinstance(value, list) else []


STANCE_LETTERS = {"YES": "Y", "NO": "N", "NUANCED": "~"}


def _stances_md(results: dict) -> list[str]:
    """The final stances, and how they moved: one letter per main-channel message."""
    lines = []
    sides = results.get("final_sides")
    stances = results.get("stances") if isinstance(results.get("stances"), dict) else {}
    personas, steps = _list(stances.get("personas")), [s for s in _list(stances.get("steps")) if isinstance(s, list)]
    if isinstance(sides, dict) and sides:
        # In seat order: the stored dict's own order is not kept (PostgreSQL's jsonb sorts keys).
        seats = {p.get("name"): index for index, p in enumerate(personas) if isinstance(p, dict)}
        ordered = sorted(sides.items(), key=lambda item: seats.get(item[0], len(seats)))
        lines += ["### Final stances", ""]
        conditions = results.get("final_conditions") if isinstance(results.get("final_conditions"), dict) else {}
        lines += [
            f"- **{md_escape(name)}**: {SIDE_LABELS.get(side, 'not recorded')}"
            + (f" (if {md_escape(conditions[name])})" if side == "NUANCED" and conditions.get(name) else "")
            for name, side in ordered
        ]
        lines.append("")
    if personas and steps:
        lines += [
            "### Stances over time",
            "",
            "One letter per message: Y yes, N no, ~ it depends, . not recorded yet.",
            "",
        ]
        for column, persona in enumerate(personas):
            if isinstance(persona, dict):
                trail = "".join(STANCE_LETTERS.get(step[column] if column < len(step) else "", ".") for step in steps)
                lines.append(f"- {md_escape(persona.get('name', ''))}: `{trail}`")
        lines.append("")
    return lines


def _crux_line(crux: dict) -> str:
    state = "resolved" if crux.get("resolved") else "unresolved"
    return (
        f"- {md_escape(crux.get('suit', ''))} {md_escape(crux.get('question', ''))}"
        f" ({md_escape(crux.get('disagreement_type', ''))}, {state}):"
        f" {md_escape(crux.get('diagnosis', ''))}"
    )


def _fault_line_line(fault_line: dict) -> str:
    sides = fault_line.get("sides") if isinstance(fault_line.get("sides"), dict) else {}
    stands = "; ".join(
        f"{side}: {', '.join(md_escape(name) for name in _list(sides.get(side)))}"
        for side in ("YES", "NO", "NUANCED")
        if _list(sides.get(side))
    )
    return f"- {md_escape(fault_line.get('question', ''))} — {stands}"


def _flip_line(flip: dict) -> str:
    return (
        f"- **{md_escape(flip.get('persona', ''))}** on {md_escape(flip.get('question', ''))}:"
        f" {md_escape(flip.get('falsifier', ''))}"
    )


def _path_line(path: dict) -> str:
    return f"- {md_escape(path.get('question', ''))}: {md_escape(path.get('path', ''))}"


def _evidence_line(entry: dict) -> str:
    return (
        f"- **{md_escape(entry.get('persona', ''))}**: {md_escape(entry.get('evidence', ''))}"
        f" (for: {md_escape(entry.get('used_for', ''))})"
    )


# The results' list sections, in the order the export shows them: (heading, results key, one line
# per entry). Entries that are not objects are skipped: stored results are read, not trusted.
RESULT_SECTIONS = (
    ("Cruxes", "cruxes", _crux_line),
    ("Fault lines", "fault_lines", _fault_line_line),
    ("Flip conditions", "flip_conditions", _flip_line),
    ("Resolution paths", "resolution_paths", _path_line),
    ("Evidence ledger", "evidence_ledger", _evidence_line),
)


def _results_md(results: dict, status: str) -> list[str]:
    lines = ["## Results", ""]
    if results.get("mode") == "collaborate" and results.get("artifact"):
        # The artifact is Markdown already; wherever this is rendered it is sanitised (projects/markdown.py).
        lines += [f"### Artifact: {md_escape(str(results.get('title', '')))}", "", str(results["artifact"]), ""]
    if results.get("regime"):
        # The one verdict sentence, in the words the page says (debates/regime.py).
        lines += [f"Where it landed: **{md_escape(verdict_sentence(results=results, status=status))}**", ""]
        if results.get("decided_on"):
            lines += [f"Decided on: {md_escape(results['decided_on'])}", ""]
        if results.get("regime_basis"):
            lines += [md_escape(str(results["regime_basis"])), ""]
    lines += _per_crux_md(results)
    lines += _decisions_md(results)
    lines += _stances_md(results)
    for title, key, line_of in RESULT_SECTIONS:
        entries = [entry for entry in _list(results.get(key)) if isinstance(entry, dict)]
        if entries:
            lines += [f"### {title}", "", *(line_of(entry) for entry in entries), ""]
    if isinstance(results.get("graph"), dict):
        lines += _graph_md(results["graph"])
    return lines


def _per_crux_md(results: dict) -> list[str]:
    """A topic no yes/no question fits: how each crux came out."""
    cruxes = [crux for crux in _list(results.get("per_crux")) if isinstance(crux, dict)]
    if not cruxes:
        return []
    lines = ["### Per crux", ""]
    lines += [
        f"- {md_escape(crux.get('question', ''))}: {md_escape(CRUX_WORDS.get(crux.get('agreement'), 'not read'))}"
        for crux in cruxes
    ]
    return [*lines, ""]


def _table_cell(text) -> str:
    return md_escape(text).replace("|", "\\|")


def _decisions_md(results: dict) -> list[str]:
    """Collaborate: each key decision, by id, and how the two revisions took it."""
    decisions = [decision for decision in _list(results.get("decisions")) if isinstance(decision, dict)]
    if not decisions:
        return []
    lines = ["### Key decisions", "", "| ID | Role | Decision | Outcome |", "|---|---|---|---|"]
    lines += [
        f"| {_table_cell(d.get('id', ''))} | {_table_cell(d.get('role', ''))} | {_table_cell(d.get('text', ''))} | "
        f"{_table_cell(d.get('outcome') or 'not compared')} |"
        for d in decisions
    ]
    return [*lines, ""]


def _graph_md(graph: dict) -> list[str]:
    """The graph mode's own results: computed from the argument map, not written by a model."""
    lines = []
    common = _list(graph.get("common_ground"))
    settled = _list(graph.get("settled"))
    if common or settled:
        lines += ["### Common ground", ""]
        lines += [
            f"- {md_escape(item.get('text', ''))} ({md_escape(item.get('holder', ''))})"
            for item in common
            if isinstance(item, dict)
        ]
        lines += [f"- Settled: {md_escape(item.get('question', ''))}" for item in settled if isinstance(item, dict)]
        lines.append("")
    camps = [camp for camp in _list(graph.get("camps")) if isinstance(camp, dict)]
    if camps:
        lines += ["### Camps", ""]
        for number, camp in enumerate(camps, start=1):
            members = ", ".join(md_escape(name) for name in _list(camp.get("personas"))) or "nobody in particular"
            lines.append(
                f"- Camp {number} ({members}): "
                + "; ".join(
                    md_escape(argument.get("text", ""))
                    for argument in _list(camp.get("arguments"))
                    if isinstance(argument, dict)
                )
            )
        lines.append("")
    assumptions = [item for item in _list(graph.get("crux_assumptions")) if isinstance(item, dict)]
    if assumptions:
        lines += ["### Crux assumptions", ""]
        lines += [
            f"- {md_escape(item.get('assumption', ''))} ({md_escape(item.get('count', 0))} disputed arguments "
            f"depend on it) — settle it by asking: {md_escape(item.get('settling_question', ''))}"
            for item in assumptions
        ]
        lines.append("")
    trail = [item for item in _list(graph.get("concession_trail")) if isinstance(item, dict)]
    if trail:
        lines += ["### Concession trail", ""]
        lines += [
            f"- Round {md_escape(item.get('round', ''))}: **{md_escape(item.get('persona', ''))}** "
            f"{md_escape(item.get('effect', 'conceded'))} “{md_escape(item.get('target_text', ''))}” "
            f"on {md_escape(item.get('question', ''))}"
            for item in trail
        ]
        lines.append("")
    return lines


REACTIONS = {"support": "accepts", "oppose": "refuses", "undetermined": "undetermined"}


def _where_we_are_md(view: DebateView) -> list[str]:
    """The conversation memory: the newest rolling summary, the decisions everyone accepted, every
    proposal with its status and who reacted how. Read from the log, so not trusted."""
    where = view.conversation if isinstance(view.conversation, dict) else {}
    circling = [note for note in view.circling if isinstance(note, dict)]
    if not where and not circling:
        return []
    lines = ["## Where we are", ""]
    summaries = [s for s in _list(where.get("summaries")) if isinstance(s, dict)]
    if summaries:
        latest = summaries[-1]
        lines += [
            f"Summary of messages {md_escape(latest.get('from_turn', ''))}–{md_escape(latest.get('to_turn', ''))}: "
            + md_escape(latest.get("text", "")),
            "",
        ]
    decisions = [md_escape(d) for d in _list(where.get("decisions")) if isinstance(d, str)]
    lines += ["### Decisions", "", *([f"- {d} (everyone accepted)" for d in decisions] or ["- None reached."]), ""]
    proposals = [p for p in _list(where.get("proposals")) if isinstance(p, dict)]
    if proposals:
        lines += ["### Proposals", ""]
        for proposal in proposals:
            reactions = proposal.get("reactions") if isinstance(proposal.get("reactions"), dict) else {}
            said = "; ".join(
                f"{md_escape(name)} {REACTIONS.get(reaction, 'undetermined')}" for name, reaction in reactions.items()
            )
            lines.append(
                f"- **{md_escape(proposal.get('by', ''))}**: {md_escape(proposal.get('proposal', ''))}"
                f" — {md_escape(proposal.get('status', 'active'))}" + (f" ({said})" if said else "")
            )
        lines.append("")
    for note in circling:
        action = "ended the discussion early" if note.get("action") == "ended" else "moved on to the next aspect"
        lines += [
            f"- Going in circles at turn {md_escape(note.get('to_turn', ''))}: {md_escape(note.get('reason', ''))}"
            f" The run {action}.",
            "",
        ]
    return lines


# Why a debate failed can carry a provider's error text: its owner's to read, not a moderator's.
REASON_WITHHELD = "The debate failed; why is shown to its owner only."


def _verdict_md(view: DebateView) -> list[str]:
    """What the verdict is about, and the one verdict sentence (debates/regime.py) once the debate
    has ended, in the words the page says."""
    lines = [f"- Decided on: {md_escape(view.decided_on)}"] if view.decided_on else []
    sentence = verdict_sentence(results=view.results, status=view.status)
    return [*lines, f"- Where it landed: {md_escape(sentence)}"] if sentence else lines


def _context_md(debate: Debate) -> list[str]:
    if debate.context_type == Debate.ContextType.NONE or not debate.context_label:
        return []
    return [f"- Context: {md_escape(debate.context_label)}"]


def debate_results_markdown(
    *, debate: Debate, view: DebateView, with_context: bool = True, faultlines: FaultlineMap | None = None
) -> str:
    """A finished debate's results as Markdown (what a note saved to a project holds): who
    debated, with which context, the crux cards and the results, without the transcript."""
    personas = view.personas or []
    lines = [f"# {md_escape(debate.topic)}", ""]
    if personas:
        lines.append("- Personas: " + ", ".join(md_escape(p.name) for p in personas))
    lines.append(f"- Mode: {md_escape(mode_label(debate.mode))} · Status: {md_escape(debate.get_status_display())}")
    lines += _verdict_md(view)
    if with_context:
        lines += _context_md(debate)
    lines.append(f"- Debated: {debate.created_at:%Y-%m-%d %H:%M} UTC")
    lines.append("")
    lines += _outcome_md(view)
    lines += _faultlines_md(faultlines)
    return "\n".join(lines).rstrip() + "\n"


def crux_card_markdown(*, debate: Debate, card) -> str:
    """One crux card as Markdown (a note saved from the card)."""
    lines = [f"# {card.suit} {md_escape(card.question)}", "", f"From the debate: {md_escape(debate.topic)}", ""]
    return "\n".join(lines + _card_md(card)[2:]).rstrip() + "\n"


def debate_markdown(
    *,
    debate: Debate,
    view: DebateView,
    with_failure_reason: bool = True,
    with_context: bool = True,
    with_spend: bool = True,
    faultlines: FaultlineMap | None = None,
) -> str:
    """with_context: name the context (the owner's project...); never for anyone else.
    with_spend: say what the debate spent (tokens, cost); the owner's alone too.
    faultlines: where the people stand, as the reader may see it (none: left out)."""
    personas = view.personas or []
    lines = [f"# {md_escape(debate.topic)}", ""]
    lines.append(f"- Status: {md_escape(debate.get_status_display())}")
    lines += _verdict_md(view)
    if with_context:
        lines += _context_md(debate)
    lines.append(f"- Created: {debate.created_at:%Y-%m-%d %H:%M} UTC")
    if personas:
        lines.append("- Personas: " + ", ".join(md_escape(p.name) for p in personas))
    provider = view.provider or debate.provider
    if provider:
        lines.append(
            f"- Model provider: {md_escape(provider)}" + (" (offline demo model)" if provider == "local" else "")
        )
    spend = f" · Tokens: {view.totals.tokens} · Cost: ${md_escape(view.totals.cost)}" if with_spend else ""
    lines.append(f"- {counts_words(view)}{spend}")
    lines.append("")
    if view.failure_reason:
        lines += ["## Failure", "", _quote(view.failure_reason if with_failure_reason else REASON_WITHHELD), ""]

    lines += ["## Main channel", ""]
    for item in view.chat:
        if item.kind == "message" and item.message:
            lines += _message_md(item.message)
        elif item.kind == "pass":
            lines += [f"_{md_escape(item.persona_name)} passes._", ""]
        elif item.kind == "card" and item.card:
            lines += [f"{item.card.suit} **Crux card posted:** {md_escape(item.card.question)}", ""]
        elif item.kind == "circling":
            lines += [f"_Going in circles: {md_escape(item.note.get('reason', ''))}_", ""]
        elif item.kind == "interjection" and item.interjection:
            lines += _interjection_md(item.interjection)

    if view.rooms:
        lines += ["## Crux rooms", ""]
        for room in view.rooms:
            a, b = room.persona_a.get("name", ""), room.persona_b.get("name", "")
            lines += [f"### {room.suit} {md_escape(a)} vs {md_escape(b)}: {md_escape(room.question)}", ""]
            for message in room.messages:
                lines += _message_md(message)

    lines += _outcome_md(view)
    lines += _faultlines_md(faultlines)
    return "\n".join(lines).rstrip() + "\n"


def faultlines_lines(faultlines: FaultlineMap, *, escape=str) -> list[str]:
    """The faultline map as lines (``manage.py faultlines`` prints them, the Markdown exports hold
    them, escaped): per crux each persona's and each person's side, then the camps with their
    members, then the crux that splits the two largest camps most."""
    lines = []
    for row in faultlines.rows:
        lines.append(f"{row.label}{' ' + row.suit if row.suit else ''}: {escape(row.question)}")
        lines += [f"  - persona {escape(name)}: {side}" for name, side in row.personas]
        for stand in row.people:
            because = f" (would change their mind: {escape(stand.because)})" if stand.because else ""
            lines.append(f"  - person {escape(stand.name)}: {stand.side}{because}")
        if not faultlines.names and row.counts_line:
            lines.append(f"  - people: {row.counts_line}")
        if not row.personas and not row.people and not row.counts:
            lines.append("  - nobody has taken a side")
    lines.append("Camps:")
    for number, camp in enumerate(faultlines.camps, start=1):
        who = ", ".join(escape(name) for name in camp.members) if faultlines.names else f"{camp.size} people"
        lines.append(f"  {number}. {who}")
    if not faultlines.camps:
        lines.append("  none: nobody has taken a side")
    split, row = faultlines.split, faultlines.split_row
    if split is not None and row is not None:
        lines.append(
            f"Splits the two largest camps most: {row.label}: {escape(row.question)} "
            f"(mean side {split.first_mean:+.2f} against {split.second_mean:+.2f})"
        )
    else:
        lines.append("Splits the two largest camps most: nothing (fewer than two camps, or no crux both answered)")
    return lines


def _faultlines_md(faultlines: FaultlineMap | None) -> list[str]:
    if faultlines is None or not faultlines.people:
        return []
    return ["## Where people stand", "", *faultlines_lines(faultlines, escape=md_escape), ""]


def faultlines_document(faultlines: FaultlineMap | None) -> dict | None:
    if faultlines is None:
        return None
    split = faultlines.split
    return {
        "cruxes": [
            {
                "number": row.number,
                "question": row.question,
                "personas": [{"name": name, "side": side} for name, side in row.personas],
                "people": [dataclasses.asdict(stand) for stand in row.people],
                "counts": row.counts,
            }
            for row in faultlines.rows
        ],
        "camps": [dataclasses.asdict(camp) for camp in faultlines.camps],
        "splitting_crux": dataclasses.asdict(split) if split is not None else None,
    }


def _outcome_md(view: DebateView) -> list[str]:
    """What a debate came to, the end of both exports: its crux cards, where it stands, the
    owner's interjections and the mode's results."""
    lines = []
    if view.cards:
        lines += ["## Crux cards", ""]
        for card in view.cards:
            lines += _card_md(card)
    lines += _where_we_are_md(view)
    lines += _interjections_md(view)
    if view.results:
        lines += _results_md(view.results, view.status)
    return lines


def _summary(view: DebateView) -> dict:
    summary = dataclasses.asdict(view)
    # The counts the page shows: messages of the main channel, turns of the debate's budget.
    summary["message_count"] = view.message_count
    summary["dialogue_turns"] = dialogue_turns(view)
    summary["verdict_sentence"] = verdict_sentence(results=view.results, status=view.status)
    summary["totals"] = {**view.totals.model_dump(), "tokens": view.totals.tokens}
    if isinstance(summary.get("results"), dict) and summary["results"].get("regime"):
        # The verdict by its name too: the key is data, the label is what a reader sees.
        summary["results"]["regime_label"] = regime_label(str(summary["results"]["regime"]))
    return summary


def _withhold_failure_reason(events: list[tuple[int, str, dict]]) -> list[tuple[int, str, dict]]:
    return [
        (seq, kind, {**payload, "reason": REASON_WITHHELD} if kind == EventKind.DEBATE_FAILED else payload)
        for seq, kind, payload in events
    ]


def debate_json(
    *,
    debate: Debate,
    events: list[tuple[int, str, dict]],
    with_failure_reason: bool = True,
    with_context: bool = True,
    with_spend: bool = True,
    faultlines: FaultlineMap | None = None,
) -> str:
    """with_spend: keep what the debate spent (each event's running totals); the owner's alone."""
    if not with_failure_reason:
        events = _withhold_failure_reason(events)
    if not with_spend:
        events = [(seq, kind, {k: v for k, v in payload.items() if k != "totals"}) for seq, kind, payload in events]
    view = fold(debate.id, events)
    document = {
        "format": JSON_FORMAT,
        "debate": {
            "id": str(debate.id),
            "topic": debate.topic,
            "status": debate.status,
            "mode": debate.mode,
            "length": debate.length,
            "provider": debate.provider,
            "failure_reason": debate.failure_reason
            if with_failure_reason
            else (debate.failure_reason and REASON_WITHHELD),
            "created_at": debate.created_at.isoformat(),
            "started_at": debate.started_at.isoformat() if debate.started_at else None,
            "finished_at": debate.finished_at.isoformat() if debate.finished_at else None,
            # The owner's project is theirs alone: anyone else's export does not name it.
            "context": {"type": debate.context_type, "label": debate.context_label} if with_context else None,
        },
        "events": [{"seq": seq, "kind": kind, "payload": payload} for seq, kind, payload in events],
        "summary": _summary(view) if with_spend else {**_summary(view), "totals": None},
        "faultlines": faultlines_document(faultlines),
    }
    text = json.dumps(document, ensure_ascii=False, indent=2)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
