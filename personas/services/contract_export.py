"""Export of persona contracts: the exact shape import reads, with sorted decks and stable JSON
formatting, so export -> import -> export gives byte-identical files."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable
from pathlib import Path

from personas.contracts import DECKS_FILE
from personas.models import AnchorExcerpt, Deck, Persona
from personas.selectors import deck_list, persona_list


def persona_contract_dict(persona: Persona) -> dict:
    """One persona as the contract JSON object that import reads (keys in a fixed order)."""
    policy = persona.evidence_policy or {}
    excerpts = sorted(persona.anchor_excerpts.all(), key=lambda excerpt: (excerpt.position, excerpt.pk))
    return {
        "personaId": persona.persona_id,
        "version": persona.version,
        "name": persona.name,
        "tagline": persona.tagline,
        "personality": persona.personality,
        "bias": persona.bias,
        "stakes": persona.stakes,
        "epistemology": persona.epistemology,
        "timeHorizon": persona.time_horizon,
        "flipConditions": persona.flip_conditions,
        "evidencePolicy": {
            "acceptedSources": list(policy.get("acceptedSources", [])),
            "rejectedSources": list(policy.get("rejectedSources", [])),
            "weighting": policy.get("weighting", ""),
        },
        "anchorExcerpts": [_excerpt_dict(excerpt) for excerpt in excerpts],
        "voice": {
            "speechPatterns": list(persona.speech_patterns or []),
            "vocabulary": list(persona.vocabulary or []),
            "forbiddenPhrases": list(persona.forbidden_phrases or []),
            "voiceExamples": [
                {"situation": example.get("situation", ""), "response": example.get("response", "")}
                for example in persona.voice_examples or []
            ],
        },
    }


def _excerpt_dict(excerpt: AnchorExcerpt) -> dict:
    data = {"id": excerpt.excerpt_id, "content": excerpt.content}
    if excerpt.source:
        data["source"] = excerpt.source
    if excerpt.date:
        data["date"] = excerpt.date
    return data


def deck_contract_dict(deck: Deck) -> dict:
    return {
        "slug": deck.slug,
        "name": deck.name,
        "description": deck.description,
        "topicArea": deck.topic_area,
        "personaIds": sorted(persona.persona_id for persona in deck.personas.all()),
    }


def persona_contract_json(persona: Persona) -> str:
    return _json_text(persona_contract_dict(persona))


def persona_export_files(*, personas: Iterable[Persona] | None = None) -> dict[str, str]:
    """File name -> text: ``<personaId>.json`` per persona, plus ``decks.json`` listing the decks
    whose every member is exported (a partial deck would shrink the deck when imported back)."""
    if personas is None:
        selected = list(persona_list())
    else:
        selected = list(persona_list().filter(pk__in=[persona.pk for persona in personas]))
    files = {f"{persona.persona_id}.json": persona_contract_json(persona) for persona in selected}
    exported = {persona.persona_id for persona in selected}
    decks = []
    for deck in deck_list():
        members = {persona.persona_id for persona in deck.personas.all()}
        if members <= exported and (members or personas is None):
            decks.append(deck_contract_dict(deck))
    if decks:
        files[DECKS_FILE] = _json_text(decks)
    return files


def persona_export(*, personas: Iterable[Persona] | None = None, directory: Path) -> list[Path]:
    """Write the contract files (see ``persona_export_files``) into ``directory``."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in persona_export_files(personas=personas).items():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def persona_export_zip(*, personas: Iterable[Persona] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in persona_export_files(personas=personas).items():
            archive.writestr(name, text)
    return buffer.getvalue()


def _json_text(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
