"""The house's forbidden phrases: what no speaker in Faultline ever says, whatever its own contract
lists. Every persona in every mode (seed, role, built from writing, cloned, imported) gets them on
top of its own (``forbidden_phrases_of``): the voice guard filters every output by that list
(orchestration/voice.py) and the prompts name it. The app's own labels (the NUANCED stance shown as
"it depends") are not speech and are never filtered.
"""

from __future__ import annotations

import re

# Sycophancy, filler and a model's disclaimers: what a capable model slips into when it talks.
HOUSE_FORBIDDEN_PHRASES = (
    "That's a great point",
    "I understand your perspective",
    "I can see where you're coming from",
    "Great question",
    "It depends",
    "Both sides make valid points",
    "As an AI",
)


def _key(phrase: str) -> str:
    return re.sub(r"\s+", " ", phrase.replace("’", "'").replace("‘", "'")).strip().lower()


def forbidden_phrases_of(persona) -> list[str]:
    """The house's phrases, then the persona's own that are not among them (each phrase once,
    whatever its case or quotes)."""
    phrases, seen = [], set()
    for phrase in [*HOUSE_FORBIDDEN_PHRASES, *(getattr(persona, "forbidden_phrases", None) or [])]:
        if isinstance(phrase, str) and phrase.strip() and _key(phrase) not in seen:
            seen.add(_key(phrase))
            phrases.append(phrase.strip())
    return phrases
