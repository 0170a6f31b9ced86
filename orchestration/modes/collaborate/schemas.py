"""Shapes of the Collaborate mode's structured calls: the key decisions of the two first answers,
and the review of the two revised answers by the decisions' ids (decisions.py checks every id).
Model output is untrusted: it is parsed against these before anything is stored or shown."""

from typing import Literal

from pydantic import BaseModel, Field


class DecisionMade(BaseModel):
    turn: int = Field(description="The N of the [turn N] line of the first answer that makes this decision")
    decision: str = Field(min_length=3, max_length=240, description="The decision, in a few words of your own")


class KeyDecisions(BaseModel):
    """The key decisions of each first answer, and the yes/no question the brief decides."""

    decisions: list[DecisionMade] = Field(max_length=12)
    question: str | None = Field(
        default=None,
        max_length=300,
        description="The yes/no question the brief decides (the brief itself when it is one), or null",
    )
    no_yes_no_question_fits: bool = Field(default=False, description="True when no yes/no question fits the brief")


class DecisionTaken(BaseModel):
    decision: str = Field(description="The decision's id, as its [ID] line gives it: D1, D2, ...")
    kept: bool = Field(
        default=True, description="Whether its own role's revised answer still holds it (false: withdrawn, dropped)"
    )
    reaction: Literal["accepts", "rejects", "undecided"] = Field(
        description="What the other role's revised answer does with it: accepts (adopts or agrees with it, in "
        "any words), rejects (refuses it, or argues for something else instead), undecided (neither, a "
        "hedge, or silence)"
    )


class RevisedAnswer(BaseModel):
    turn: int = Field(description="The N of a revised answer's [turn N] line")
    side: Literal["YES", "NO", "NUANCED"] | None = Field(
        default=None, description="Its answer to the question decided on, if it gives one; null otherwise"
    )


class DecisionReview(BaseModel):
    """What each revised answer does with each key decision, by id."""

    decisions: list[DecisionTaken] = Field(max_length=20)
    answers: list[RevisedAnswer] = Field(default_factory=list, max_length=2)
