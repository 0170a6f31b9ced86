"""Shapes of structured model output in the dialogue mode. Model output is untrusted: it is
parsed against these (by the gateway) before anything is stored or shown."""

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
