"""Contract JSON samples and small helpers for the persona tests."""

import json
from pathlib import Path

from personas.models import AnchorExcerpt, Deck, Persona


def contract_data(persona_id: str = "the-macro-bear", **overrides) -> dict:
    """A valid contract in the seed's JSON format; keyword overrides replace top-level keys."""
    data = {
        "personaId": persona_id,
        "version": "2026-11-22T00:00:00Z",
        "personality": "A bear who has seen three crashes.",
        "bias": "Sees a bubble in everything.",
        "stakes": "A short book and a newsletter.",
        "epistemology": "Trusts credit spreads over headlines.",
        "timeHorizon": "Eighteen months.",
        "flipConditions": "Spreads tightening for two quarters while earnings rise.",
        "evidencePolicy": {
            "acceptedSources": ["Credit spreads", "Central-bank balance sheets"],
            "rejectedSources": ["Sell-side price targets"],
            "weighting": "Market prices over forecasts.",
        },
        "anchorExcerpts": [
            {
                "id": "bear-01",
                "content": "Every cycle ends the same way: in credit.",
                "source": "Faultline archetype sample",
            },
            {"id": "bear-02", "content": "Liquidity is a coward.", "date": "2026-01-02"},
        ],
        "voice": {
            "speechPatterns": ["You open with a warning, then a number."],
            "vocabulary": ["spreads", "liquidity"],
            "forbiddenPhrases": ["That's a great point", "I understand your perspective"],
            "voiceExamples": [{"situation": "Someone calls a bottom.", "response": "Call me when spreads agree."}],
        },
    }
    data.update(overrides)
    return data


def deck_data(slug: str = "markets", persona_ids: list[str] | None = None, **overrides) -> dict:
    data = {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "description": "People who argue about markets.",
        "topicArea": "Markets",
        "personaIds": persona_ids if persona_ids is not None else ["the-macro-bear"],
    }
    data.update(overrides)
    return data


def write_json(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def database_is_empty() -> bool:
    return not (Persona.objects.exists() or AnchorExcerpt.objects.exists() or Deck.objects.exists())


def folder_texts(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.iterdir())}
