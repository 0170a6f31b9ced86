from typing import Literal

from pydantic import BaseModel, Field

from debates.blackboard.schemas import LedgerDigest


class DisagreementFound(BaseModel):
    persona_a: str = Field(description="The id of one participant in the disagreement, as their [id] line gives it")
    persona_b: str = Field(description="The id of the other participant, as their [id] line gives it")
    dispute: str = Field(max_length=200, description="The disputed point as a yes/no question")
    known_id: int | None = Field(
        default=None, description="Id of the matching known dispute, if this is one already listed; else null"
    )
    confidence: float = Field(ge=0, le=1, description="How sure you are this is a real, substantive disagreement")


class DisagreementScan(BaseModel):
    disagreements: list[DisagreementFound] = Field(max_length=4)


class WindowDigest(LedgerDigest):
    """A detection window's digest: the ledger updates of its new messages and the window's scan."""

    disagreements: list[DisagreementFound] = Field(default_factory=list, max_length=4)


class CruxExitCheck(BaseModel):
    surfaced: bool = Field(description="Has the root of the disagreement (the crux) been stated clearly?")
    crux: str = Field(default="", max_length=300, description="The crux in one sentence, if surfaced")


class PersonaPosition(BaseModel):
    persona: str = Field(description="The participant's id, as their [id] line gives it")
    position: Literal["YES", "NO", "NUANCED"]
    reasoning: str = Field(max_length=500)
    falsifier: str = Field(max_length=300, description="What evidence would change this persona's mind")


class CruxCardDraft(BaseModel):
    question: str = Field(max_length=200, description="The crux as a yes/no question")
    positions: list[PersonaPosition] = Field(min_length=2, max_length=2)
    disagreement_type: Literal["horizon", "evidence", "values", "definition", "claim", "premise"]
    diagnosis: str = Field(max_length=500, description="Why they disagree, at root")
    resolved: bool
    resolution: str = Field(default="", max_length=500)
