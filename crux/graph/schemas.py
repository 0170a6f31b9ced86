"""What the crystallizer returns: the move each recent turn made, and the graph mutations it
proposes. The shape is loose on purpose (no length limits, no minimum counts): one malformed
proposal must be rejected on its own by the graph's rules, not sink the whole batch in a schema
error. Pure (pydantic only)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .nodes import (
    AddDispute,
    AddReason,
    AddStance,
    Assumption,
    Concede,
    Mutation,
    ProposeCrux,
    Reframe,
    StanceDraft,
)

Move = Literal["CLAIM", "CHALLENGE", "CLARIFY", "CONCEDE", "REFRAME", "PROPOSE_CRUX"]
DisagreementType = Literal["horizon", "evidence", "values", "definition", "claim", "premise"]


class MoveTag(BaseModel):
    turn: int = Field(description="Turn number, as shown in brackets")
    move: Move


class AssumptionDraft(BaseModel):
    assumption: str = Field(description="An unstated premise the argument rests on, as a short statement")
    settling_question: str = Field(description="A concrete question whose answer would settle that premise")


class StanceProposal(BaseModel):
    persona: str = Field(description="The participant's id, as their [id] line gives it")
    side: Literal["YES", "NO"]
    claim: str = Field(description="Their position on the question in one sentence, in their own terms")
    turn: int = Field(description="The turn in which they took this position")
    assumptions: list[AssumptionDraft] = Field(default_factory=list, description="At most two")


class DisputeProposal(BaseModel):
    question: str = Field(description="A binary yes/no question they answer differently")
    disagreement_type: DisagreementType
    stances: list[StanceProposal] = Field(description="At least one YES and one NO, one per persona")


class StanceAddition(BaseModel):
    dispute_id: str = Field(description="Id of an existing dispute, e.g. D2")
    persona: str = Field(description="The participant's id, as their [id] line gives it")
    side: Literal["YES", "NO"]
    claim: str
    turn: int
    assumptions: list[AssumptionDraft] = Field(default_factory=list)


class ReasonProposal(BaseModel):
    stance_id: str = Field(description="Id of the existing stance this reason is about, e.g. S3")
    persona: str = Field(description="The id of who gave the reason, as their [id] line gives it")
    relation: Literal["supports", "attacks"]
    text: str = Field(description="The reason in one sentence")
    turn: int
    assumptions: list[AssumptionDraft] = Field(default_factory=list, description="At most two")


class ConcessionProposal(BaseModel):
    persona: str = Field(description="The id of who conceded, as their [id] line gives it")
    target_id: str = Field(
        description="Id of the stance (S..) they gave up, or the reason (R..) they withdrew or granted"
    )
    what: str = Field(description="What they conceded, in a few words")
    turn: int


class ReframeProposal(BaseModel):
    dispute_id: str
    question: str = Field(description="The sharper yes/no question")
    persona: str = Field(description="The id of who reframed it, as their [id] line gives it")
    turn: int


class CruxProposal(BaseModel):
    dispute_id: str
    persona: str = Field(description="The id of who said this is what it all turns on, as their [id] line gives it")
    turn: int


class Crystallization(BaseModel):
    moves: list[MoveTag] = Field(default_factory=list, description="One tag per new turn")
    new_disputes: list[DisputeProposal] = Field(default_factory=list)
    new_stances: list[StanceAddition] = Field(default_factory=list)
    new_reasons: list[ReasonProposal] = Field(default_factory=list)
    concessions: list[ConcessionProposal] = Field(default_factory=list)
    reframes: list[ReframeProposal] = Field(default_factory=list)
    crux_proposals: list[CruxProposal] = Field(default_factory=list)

    def mutations(self) -> list[Mutation]:
        def assumptions(items: list[AssumptionDraft]) -> tuple[Assumption, ...]:
            return tuple(Assumption(text=a.assumption, settling_question=a.settling_question) for a in items)

        def stance(s: StanceProposal | StanceAddition) -> StanceDraft:
            return StanceDraft(
                persona=s.persona, side=s.side, claim=s.claim, turn=s.turn, assumptions=assumptions(s.assumptions)
            )

        return [
            *(
                AddDispute(
                    question=d.question,
                    disagreement_type=d.disagreement_type,
                    stances=tuple(stance(s) for s in d.stances),
                )
                for d in self.new_disputes
            ),
            *(AddStance(dispute=s.dispute_id, stance=stance(s)) for s in self.new_stances),
            *(
                AddReason(
                    stance=r.stance_id,
                    persona=r.persona,
                    relation=r.relation,
                    text=r.text,
                    turn=r.turn,
                    assumptions=assumptions(r.assumptions),
                )
                for r in self.new_reasons
            ),
            *(Concede(persona=c.persona, target=c.target_id, turn=c.turn, what=c.what) for c in self.concessions),
            *(
                Reframe(dispute=r.dispute_id, question=r.question, persona=r.persona, turn=r.turn)
                for r in self.reframes
            ),
            *(ProposeCrux(dispute=c.dispute_id, persona=c.persona, turn=c.turn) for c in self.crux_proposals),
        ]
