"""Shapes of structured model output in the dialogue mode. Model output is untrusted: it is
parsed against these (by the gateway) before anything is stored or shown."""

from typing import Literal

from pydantic import BaseModel, Field, field_validator


class Aspect(BaseModel):
    label: str = Field(min_length=2, max_length=80, description="A short name for this facet of the topic")
    description: str = Field(max_length=300, description="One sentence on what is contested here")


class AspectPlan(BaseModel):
    aspects: list[Aspect] = Field(min_length=2, max_length=4)
    question: str | None = Field(
        default=None,
        max_length=300,
        description="The yes/no question the debate's verdict is about: the topic itself when it is one; "
        "for an open topic (What should...? How should...?) the yes/no question that best captures what "
        "it must decide; null when no yes/no question fits",
    )
    no_yes_no_question_fits: bool = Field(
        default=False,
        description="True when no yes/no question fits the topic (a plan with several parts, a budget "
        "to split): the verdict then reports agreement per crux",
    )


class EvidenceItem(BaseModel):
    persona: str = Field(description="Name of the persona who cited it")
    evidence: str = Field(max_length=300, description="The fact, data or source they relied on")
    used_for: str = Field(max_length=300, description="The point it was used to support")


class EvidenceLedger(BaseModel):
    entries: list[EvidenceItem] = Field(max_length=30)


# ── Analyst/Critic mode: the Critic's agreement assessment ─────────────────────────────────────


def _confidence():
    return Field(default=None, ge=0, le=1, description="How sure the Critic is of its assessment of this point, 0 to 1")


class _AssessedPoint(BaseModel):
    """A point of the Critic's assessment; its confidence comes after the point (the order a model
    writes the fields in)."""

    @field_validator("confidence", mode="before", check_fields=False)
    @classmethod
    def _percent_as_fraction(cls, value):
        """A model that answers 80 for 0.8 is read as a percentage, not rejected."""
        if isinstance(value, int | float) and not isinstance(value, bool) and 1 < value <= 100:
            return value / 100
        return value


class AgreedPoint(_AssessedPoint):
    point: str = Field(min_length=3, max_length=400, description="A point of the Analyst's answer the Critic accepts")
    reasoning: str = Field(default="", max_length=600, description="Why the Critic accepts it")
    confidence: float | None = _confidence()


class DisagreedPoint(_AssessedPoint):
    point: str = Field(min_length=3, max_length=400, description="A point of the Analyst's answer the Critic rejects")
    counter_argument: str = Field(default="", max_length=600, description="The Critic's counter-argument")
    confidence: float | None = _confidence()


class UnverifiablePoint(_AssessedPoint):
    point: str = Field(min_length=3, max_length=400, description="A point neither side can check from here")
    reason: str = Field(default="", max_length=400)
    confidence: float | None = _confidence()


class AgreementAssessment(BaseModel):
    agreed: list[AgreedPoint] = Field(default_factory=list, max_length=20)
    disagreed: list[DisagreedPoint] = Field(default_factory=list, max_length=20)
    unverifiable: list[UnverifiablePoint] = Field(default_factory=list, max_length=20)
    overall: Literal["strong", "moderate", "weak"] = Field(description="Overall agreement with the Analyst")
