"""Shapes of structured model output in the dialogue mode. Model output is untrusted: it is
parsed against these (by the gateway) before anything is stored or shown."""

from typing import Literal

from pydantic import BaseModel, Field


class Aspect(BaseModel):
    label: str = Field(min_length=2, max_length=80, description="A short name for this facet of the topic")
    description: str = Field(max_length=300, description="One sentence on what is contested here")


class AspectPlan(BaseModel):
    aspects: list[Aspect] = Field(min_length=2, max_length=4)


class EvidenceItem(BaseModel):
    persona: str = Field(description="Name of the persona who cited it")
    evidence: str = Field(max_length=300, description="The fact, data or source they relied on")
    used_for: str = Field(max_length=300, description="The point it was used to support")


class EvidenceLedger(BaseModel):
    entries: list[EvidenceItem] = Field(max_length=30)


# ── Analyst/Critic mode: the Critic's agreement assessment ─────────────────────────────────────


class AgreedPoint(BaseModel):
    point: str = Field(min_length=3, max_length=400, description="A point of the Analyst's answer the Critic accepts")
    reasoning: str = Field(default="", max_length=600, description="Why the Critic accepts it")


class DisagreedPoint(BaseModel):
    point: str = Field(min_length=3, max_length=400, description="A point of the Analyst's answer the Critic rejects")
    counter_argument: str = Field(default="", max_length=600, description="The Critic's counter-argument")


class UnverifiablePoint(BaseModel):
    point: str = Field(min_length=3, max_length=400, description="A point neither side can check from here")
    reason: str = Field(default="", max_length=400)


class AgreementAssessment(BaseModel):
    agreed: list[AgreedPoint] = Field(default_factory=list, max_length=20)
    disagreed: list[DisagreedPoint] = Field(default_factory=list, max_length=20)
    unverifiable: list[UnverifiablePoint] = Field(default_factory=list, max_length=20)
    overall: Literal["strong", "moderate", "weak"] = Field(description="Overall agreement with the Analyst")
