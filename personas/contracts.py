"""The persona contract as JSON: the seed's PersonaContract plus an optional voice profile.

One pydantic model per JSON object. Import, export and the admin forms all validate through these
models, so the rules live in exactly one place. Keys are the seed's camelCase names; unknown keys
are rejected so a typo ("flipCondition") fails loudly instead of being dropped.

    {
      "personaId": "hard-money-maximalist",        slug, required
      "version": "2026-11-22T00:00:00Z",           required
      "name": "...", "tagline": "...",             optional
      "personality", "bias", "stakes", "epistemology", "timeHorizon", "flipConditions":
                                                   required, non-empty strings
      "evidencePolicy": {"acceptedSources": [str], "rejectedSources": [str], "weighting": str},
      "anchorExcerpts": [{"id": str, "content": str, "source"?: str, "date"?: str}],
      "voice"?: {"speechPatterns": [str], "vocabulary": [str], "forbiddenPhrases": [str],
                 "voiceExamples": [{"situation": str, "response": str}]}
    }

A folder of contracts may carry a ``decks.json``: a list of DeckContract objects.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

DECKS_FILE = "decks.json"

# The same pattern as django.core.validators.validate_slug, so a valid contract is a valid row.
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+\Z")


def _check_slug(value: str) -> str:
    if not _SLUG.match(value):
        raise PydanticCustomError("slug", "Must be a slug: letters, digits, hyphens and underscores only")
    if value == DECKS_FILE.removesuffix(".json"):
        # Exported as "<personaId>.json", it would collide with the deck file.
        raise PydanticCustomError("slug_reserved", "'decks' is reserved for the deck file")
    return value


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Slug = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80), AfterValidator(_check_slug)
]


def _required_text(max_length: int):
    return Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=max_length)]


def _optional_text(max_length: int):
    return Annotated[str, StringConstraints(strip_whitespace=True, max_length=max_length)]


class _ContractObject(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel)


class EvidencePolicy(_ContractObject):
    accepted_sources: list[Text]
    rejected_sources: list[Text]
    weighting: Text


class AnchorExcerptContract(_ContractObject):
    id: _required_text(80)
    content: Text
    source: _optional_text(200) = ""
    date: _optional_text(40) = ""


class VoiceExample(_ContractObject):
    situation: Text
    response: Text


class VoiceProfile(_ContractObject):
    speech_patterns: list[Text] = []
    vocabulary: list[Text] = []
    forbidden_phrases: list[Text] = []
    voice_examples: list[VoiceExample] = []


class PersonaContract(_ContractObject):
    persona_id: Slug
    version: _required_text(40)
    name: _required_text(120) | None = None
    tagline: _optional_text(200) = ""
    personality: Text
    bias: Text
    stakes: Text
    epistemology: Text
    time_horizon: Text
    flip_conditions: Text
    evidence_policy: EvidencePolicy
    anchor_excerpts: list[AnchorExcerptContract]
    voice: VoiceProfile = VoiceProfile()

    @field_validator("anchor_excerpts")
    @classmethod
    def _excerpt_ids_are_unique(cls, excerpts: list[AnchorExcerptContract]) -> list[AnchorExcerptContract]:
        _reject_duplicates([excerpt.id for excerpt in excerpts], what="excerpt id")
        return excerpts

    @model_validator(mode="after")
    def _name_defaults_to_persona_id(self) -> PersonaContract:
        if self.name is None:
            self.name = persona_name_from_id(self.persona_id)
        return self


class DeckContract(_ContractObject):
    slug: Slug
    name: _required_text(120)
    description: str = ""
    topic_area: _optional_text(120) = ""
    persona_ids: list[Slug]

    @field_validator("persona_ids")
    @classmethod
    def _persona_ids_are_unique(cls, persona_ids: list[str]) -> list[str]:
        _reject_duplicates(persona_ids, what="personaId")
        return persona_ids


def _reject_duplicates(values: list[str], *, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise PydanticCustomError("duplicate", "Duplicate {what} '{value}'", {"what": what, "value": value})
        seen.add(value)


# The parts the admin edits as raw JSON, validated by the same rules as a contract file.
PHRASE_LIST = TypeAdapter(list[Text])
VOICE_EXAMPLE_LIST = TypeAdapter(list[VoiceExample])
DECK_LIST = TypeAdapter(list[DeckContract])


def persona_name_from_id(persona_id: str) -> str:
    """'hard-money-maximalist' -> 'Hard Money Maximalist'."""
    return " ".join(word.capitalize() for word in re.split(r"[-_]+", persona_id) if word)


def contract_error_messages(error: ValidationError) -> list[str]:
    """One line per problem, each naming the field path the way the JSON spells it:
    ``evidencePolicy.weighting: Field required``, ``anchorExcerpts[2].content: ...``."""
    messages = []
    for detail in error.errors(include_url=False):
        message = detail["msg"]
        if detail["type"] in {"model_type", "model_attributes_type", "dict_type"}:
            message = "Input should be a JSON object"
        elif detail["type"] == "string_too_short" and detail.get("ctx", {}).get("min_length") == 1:
            message = "Must not be empty"
        messages.append(f"{contract_field_path(detail['loc']) or '(top level)'}: {message}")
    return messages


def contract_field_path(loc: tuple) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else str(part)
    return path
