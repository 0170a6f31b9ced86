"""Structured output the orchestrator asks for to keep the blackboard current.

A participant is named by the id its item line gave it (``[persona-id] Name``), an open proposal
by its line's (``[X3] Name: proposal``); the ledger checks each (gateways/llm/references.py) and
stores none that is nobody's."""

from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field


def _one_to_ten(value):
    # A side rating: an out-of-range or unreadable one must not cost the whole update it rides on.
    try:
        return min(10, max(1, round(float(value))))
    except (TypeError, ValueError):
        return 5


Importance = Annotated[int, BeforeValidator(_one_to_ten)]


class Challenge(BaseModel):
    to: str = Field(description="The id of the participant being challenged, as their [id] line gives it")
    challenge: str = Field(max_length=240, description="The question or objection they now have to answer")


class Agreement(BaseModel):
    with_: str = Field(alias="with", description="The id of the other participant, as their [id] line gives it")
    on: str = Field(max_length=200)


class Disagreement(Agreement):
    intensity: Literal["mild", "strong"]


class ProposalReaction(BaseModel):
    proposal: str = Field(
        description="The id of the open proposal this message reacts to, as its [X1] line gives it; for a "
        "proposal made in one of the messages of this digest, that message's [turn N]"
    )
    reaction: Literal["supports", "opposes", "amends", "undecided"]
    note: str = Field(default="", max_length=160, description="The reaction in a few words")


class PositionUpdate(BaseModel):
    """What one message changed in its speaker's position (and whom it challenged)."""

    topic_side: Literal["YES", "NO", "NUANCED"] | None = Field(
        default=None,
        description="The speaker's answer to the debate question (the yes/no question its verdict is about, "
        "when one was set) as of this message: YES, NO, or NUANCED (yes on a condition, partly, it "
        "depends); null if this message does not show it",
    )
    topic_condition: str | None = Field(
        default=None,
        max_length=240,
        description="For a NUANCED side: what the answer hangs on, in a few words of your own (the fee "
        "revenue goes to buses); null otherwise, or if the message does not say",
    )

    overall_stance: str | None = Field(
        default=None, max_length=240, description="Updated one-sentence stance on the whole topic, or null if unchanged"
    )
    aspect_position: str | None = Field(
        default=None, max_length=240, description="Their stance on the current aspect, or null if unchanged"
    )
    evidence: list[str] = Field(
        default_factory=list,
        max_length=4,
        description="Concrete evidence cited in THIS message (data, studies, cases, sources)",
    )
    challenges_raised: list[Challenge] = Field(default_factory=list, max_length=3)
    challenges_answered: list[str] = Field(
        default_factory=list,
        max_length=5,
        description="Which of the speaker's listed unanswered challenges this message answers, copied exactly",
    )
    new_agreement: Agreement | None = None
    new_disagreement: Disagreement | None = None
    concession: str | None = Field(default=None, max_length=240, description="What they conceded, or null")
    shift: str | None = Field(default=None, max_length=240, description="How their position moved, or null")
    proposal: str | None = Field(default=None, max_length=240, description="A proposal they put to the group, or null")
    proposal_reaction: ProposalReaction | None = Field(
        default=None, description="Their reaction to one of the open proposals listed, or null"
    )
    decision: str | None = Field(
        default=None, max_length=240, description="A point everyone now explicitly accepts, or null"
    )
    importance: Importance = Field(
        default=5,
        ge=1,
        le=10,
        description="How much this message matters later: 1 small talk, 5 a usual argument, 7+ new evidence, "
        "a concession or a shift",
    )


class MessageUpdate(PositionUpdate):
    """One message's PositionUpdate inside a digest, keyed by the message it is about."""

    turn: int = Field(description="The N of the message's [turn N] label")
    speaker: str = Field(description="The id of who said that message, as their [id] line gives it")


class LedgerDigest(BaseModel):
    """What a stretch of messages changed in the ledger: one update per message asked about."""

    updates: list[MessageUpdate] = Field(default_factory=list, max_length=8)


class RoundTake(BaseModel):
    persona: str = Field(description="The participant's id, as their [id] line gives it")
    position: str = Field(max_length=240)
    key_argument: str = Field(max_length=300)
    evidence_cited: list[str] = Field(default_factory=list, max_length=4)
    engaged: str = Field(default="", description="The id of the participant they mainly engaged, or empty")


class RoundRecordDraft(BaseModel):
    takes: list[RoundTake] = Field(max_length=6)
    summary: str = Field(max_length=400)
    new_disagreements: list[str] = Field(default_factory=list, max_length=4)
    shifts: list[str] = Field(default_factory=list, max_length=4)


class ReflectionItem(BaseModel):
    content: str = Field(max_length=300)
    type: Literal["pattern", "shift", "convergence", "escalation"]
    about: list[str] = Field(default_factory=list, max_length=6, description="The ids of the participants it is about")
    importance: Importance = Field(ge=1, le=10)


class ReflectionDraft(BaseModel):
    reflections: list[ReflectionItem] = Field(max_length=3)


class RollingSummaryDraft(BaseModel):
    """The conversation so far, as the last summary left it plus the messages since."""

    summary: str = Field(
        max_length=1200,
        description="Under 150 words: key points raised, agreements reached, disagreements still open, "
        "decisions made, open questions. Only what the messages say.",
    )
