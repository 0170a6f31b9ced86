"""The atlas as Markdown and as JSON: what the page shows, for keeping or for other tools. Text
from cards (model output) is neutralised for Markdown the way debate exports are."""

from __future__ import annotations

from atlas.selectors import Atlas
from debates.exports import md_escape


def _prediction(p) -> dict:
    return {
        "persona": p.persona.name if p.persona else None,
        "claim": p.claim,
        "settled_by": p.settled_by,
        "check_by": p.check_by.isoformat() if p.check_by else None,
        "status": p.status,
        "outcome_note": p.outcome_note,
    }


def atlas_json(atlas: Atlas, *, project=None) -> dict:
    return {
        "project": project.name if project else None,
        "query": atlas.query,
        "embedding_model": atlas.embedding_model,
        "threshold": atlas.threshold,
        "cards": atlas.cards,
        "cruxes": [
            {
                "question": crux.record.question,
                "wordings": crux.wordings,
                "debates": crux.record.debates,
                "decisive": crux.record.decisive_count,
                "resolved": crux.record.resolved_count,
                "appearances": [
                    {
                        "debate_id": a.debate_id,
                        "topic": a.debate_topic,
                        "question": a.question,
                        "sides": a.sides,
                        "resolved": a.resolved,
                        "resolution": a.resolution,
                        "decisive": a.decisive,
                    }
                    for a in crux.record.appearances
                ],
                "shifts": [{"persona": s.persona, "path": list(s.path)} for s in crux.record.shifts],
                "predictions": [_prediction(p) for p in crux.predictions],
                "reruns": [
                    {
                        "original": str(r.original.pk),
                        "rerun": str(r.rerun.pk),
                        "swapped_out": r.swapped_out,
                        "swapped_in": r.swapped_in,
                    }
                    for r in crux.reruns
                ],
            }
            for crux in atlas.cruxes
        ],
    }


def atlas_markdown(atlas: Atlas, *, project=None) -> str:
    title = f"Crux atlas: {md_escape(project.name)}" if project else "Crux atlas"
    lines = [f"# {title}", ""]
    lines += [
        f"{atlas.cards} crux cards in {len(atlas.cruxes)} cruxes (grouped at similarity "
        f"{atlas.threshold:.2f}, {md_escape(atlas.embedding_model)}).",
        "",
    ]
    for crux in atlas.cruxes:
        record = crux.record
        lines += [f"## {md_escape(record.question)}", ""]
        lines += [
            f"In {record.debates} debate(s); the decisive crux {record.decisive_count} time(s); "
            f"resolved {record.resolved_count} time(s).",
            "",
        ]
        for a in record.appearances:
            sides = ", ".join(f"{md_escape(name)} {md_escape(side)}" for name, side in a.sides.items())
            state = "resolved" if a.resolved else ("decisive, open" if a.decisive else "open")
            lines.append(f"- {md_escape(a.debate_topic)}: “{md_escape(a.question)}”: {sides} ({state})")
        if record.shifts:
            lines += ["", "Shifts: " + "; ".join(md_escape(str(s)) for s in record.shifts)]
        for p in crux.predictions:
            who = f"{md_escape(p.persona.name)}: " if p.persona else ""
            check = f", check by {p.check_by:%Y-%m-%d}" if p.check_by else ""
            lines.append(f"- Prediction, {who}{md_escape(p.claim)} ({p.get_status_display().lower()}{check})")
        for r in crux.reruns:
            lines.append(
                f"- Re-run: “{md_escape(r.original.topic)}” again with {md_escape(', '.join(r.swapped_in))} "
                f"for {md_escape(', '.join(r.swapped_out))}"
            )
        lines.append("")
    return "\n".join(lines)
