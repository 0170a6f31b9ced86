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
    persona: str = Field(description="The id of the participant who cited it, as their [id] line gives it")
    evidence: str = Field(max_length=300, description="The fact, data or source they relied on")
    used_for: str = Field(max_length=300, description="The point it was used to support")


class EvidenceLedger(BaseModel):
    entries: list[EvidenceItem] = Field(max_length=30)


# ── Analyst/Critic mode: the Critic's agreement assessment, by reference ──────────────────────


def _confidence():
    return Field(default=None, ge=0, le=1, description="How sure the Critic is of its assessment of this point, 0 to 1")


class _Judged(BaseModel):
    """An entry the Critic judged; its confidence comes after it (the order a model writes the fields in)."""

    @field_validator("confidence", mode="before", check_fields=False)
    @classmethod
    def _percent_as_fraction(cls, value):
        """A model that answers 80 for 0.8 is read as a percentage, not rejected."""
        if isinstance(value, int | float) and not isinstance(value, bool) and 1 < value <= 100:
            return value / 100
        return value


Verdict = Literal["accepted", "contested", "unverifiable"]


class OpenPointAssessed(_Judged):
    """What this round did to one open point, named by its id (the ledger's P1, P2...)."""

    id: str = Field(max_length=12, description="The open point's id, exactly as the ledger shows it (P1, P2...)")
    status: Literal["held", "accepted", "contested", "unverifiable", "withdrawn", "refined", "negated"] = Field(
        description="held: the Analyst still holds it and the Critic said nothing new of it; accepted, contested, "
        "unverifiable: the Critic's verdict on it; withdrawn: the Analyst drops it; refined: the Analyst narrows it "
        "into new wording; negated: the Analyst now holds its opposite"
    )
    new_wording: str = Field(
        default="", max_length=400, description="refined or negated: the Analyst's new point, in one sentence"
    )
    verdict: Verdict | None = Field(
        default=None, description="refined or negated: the Critic's verdict on the new wording"
    )
    quote: str = Field(
        default="",
        max_length=600,
        description="withdrawn, refined or negated: the Analyst's words of this round that do it, copied exactly",
    )
    reason: str = Field(default="", max_length=600, description="The Critic's reasoning or counter-argument")
    confidence: float | None = _confidence()


class NewPoint(_Judged):
    """A point the Analyst makes this round that is none of the open points (a restated one is its id's)."""

    text: str = Field(min_length=3, max_length=400, description="The new point, in one sentence")
    status: Verdict = Field(description="The Critic's verdict on it")
    reason: str = Field(default="", max_length=600, description="The Critic's reasoning or counter-argument")
    confidence: float | None = _confidence()


class AgreementAssessment(BaseModel):
    points: list[OpenPointAssessed] = Field(
        default_factory=list, max_length=40, description="One entry per open point, by its id"
    )
    new_points: list[NewPoint] = Field(default_factory=list, max_length=20)
    overall: Literal["strong", "moderate", "weak"] = Field(description="Overall agreement with the Analyst")
