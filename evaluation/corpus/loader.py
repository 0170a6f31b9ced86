"""The truth corpus, read: one TOML file per scenario (evaluation/corpus/truth/), parsed with tomllib,
typed by pydantic into the frozen dataclasses below, then checked for what a schema cannot say
(every label a scenario refers to exists, in the right place, at the right time). Pure: no Django,
none of the app's packages, so any commit's code can be measured against the same files.

    scenarios = load_corpus()                 # the visible scenarios, sorted by name
    held_out = load_corpus(held_out=True)     # truth/held_out/: not to be read while tuning code

A bad file raises CorpusError naming the file and every problem in it, each at its place
("turns[3].meaning.stances[0].question: no question 'q3' (the scenario has q1, q2)").

README.md (beside this file) describes every field and how a runner plays it. In short: what is
said (``text``) is for the scripted speakers; what it means (``meaning``) is for the scripted reader
that answers Faultline's structured calls; what is true of the debate (``expect``) is for the
metrics alone.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, TypeAdapter, ValidationError

TRUTH = Path(__file__).resolve().parent / "truth"
HELD_OUT = "held_out"

DIALOGUE, GRAPH, ANALYST_CRITIC, COLLABORATE = "dialogue", "graph", "analyst_critic", "collaborate"
MODES = (DIALOGUE, GRAPH, ANALYST_CRITIC, COLLABORATE)
# The house's forbidden phrases: every persona and role gets them on top of its own (issue 39).
HOUSE_FORBIDDEN = (
    "That's a great point",
    "I understand your perspective",
    "It depends",
    "Great question",
    "As an AI",
)
# Verdicts that mean the participants reached agreement (a run that reports one where the truth
# is another verdict fakes a consensus; a run that reports none where the truth is one misses it).
AGREEMENT_VERDICTS = ("consensus", "conditional_agreement")
# The issue-39 failure stories a scenario can reproduce (``stories``).
STORIES = (
    "rewording_never_converges",  # Analyst/Critic: restated, narrowed or withdrawn points never close
    "split_called_consensus",  # Collaborate: a split with no "Open questions" heading
    "open_question_read_as_agreement",  # every answer NUANCED on the literal open topic
    "paraphrase_defeats_circling",  # one disagreement restated in new words is not seen as circling
    "paraphrase_defeats_proposals",  # a reaction tied to a proposal by shared words
    "ghost_names",  # names nobody in the debate has
    "voice_guard_gaps",  # house phrases reach a surface, or an answer is lost to the filter
    "contradictory_words",  # verdict, score and status that disagree on one page
    "dropped_critic_turn",  # an Analyst/Critic round whose Critic said nothing usable
    "memory_misses_analyst_critic",  # a recalled insight in no Analyst/Critic prompt
)
# What a scenario exercises (``traits``), so the tests can say the corpus covers each.
TRAITS = (
    "rewording",
    "numbers_restated",
    "narrowing",
    "withdrawal",
    "negation",
    "partial_concession",
    "hedges",
    "sarcasm",
    "open_question",
    "conditions_same",
    "conditions_differ",
    "long_markdown",
    "circling",
    "proposal",
    "forbidden_phrases",
    "dropped_turn",
    "decoy",
    "unverifiable",
    "memory",
    "reader_slips",
    "not_yes_no",
    "undetermined",
    "mind_changed",
    "agreement_missed_risk",  # agreement said in words a word-matcher misses
    "agreement_faked_risk",  # no agreement, in words a word-matcher takes for one
)

Mode = Literal["dialogue", "graph", "analyst_critic", "collaborate"]
Role = Literal["analyst", "critic", "architect", "reviewer"]
Side = Literal["YES", "NO", "NUANCED"]
ClaimAct = Literal["states", "restates", "refines", "withdraws", "negates"]
ReactionKind = Literal["accepts", "rejects", "amends", "undecided", "unverifiable"]
Move = Literal["CLAIM", "CHALLENGE", "CLARIFY", "CONCEDE", "REFRAME", "PROPOSE_CRUX"]
TurnKind = Literal["opening", "turn", "closing"]
Verdict = Literal[
    "consensus", "conditional_agreement", "partial_agreement", "disagreement", "undetermined", "not_yes_no"
]
PointStatus = Literal["agreed", "contested", "unverifiable", "superseded", "withdrawn", "negated"]
DecisionStatus = Literal["agreed", "disputed", "undecided", "dropped"]
ProposalStatus = Literal["accepted", "rejected", "open"]
CruxAgreement = Literal["agree", "disagree", "partial"]
FinalSide = Literal["YES", "NO", "NUANCED", "none"]

_STRICT = ConfigDict(extra="forbid", str_strip_whitespace=False)


class CorpusError(ValueError):
    """A corpus file that cannot be used, with every problem found in it."""


# ── who takes part, and what the scenario talks about ─────────────────────────────────────────


@dataclass(frozen=True)
class Participant:
    __pydantic_config__ = _STRICT
    name: str
    worldview: str
    role: Role | None = None  # Analyst/Critic and Collaborate only: the seat it plays
    forbidden_phrases: tuple[str, ...] = ()  # its own, on top of the house's


@dataclass(frozen=True)
class Question:
    """A yes/no question the speakers answer, under a scenario-local id (q1, q2...)."""

    __pydantic_config__ = _STRICT
    id: str
    text: str
    planned: bool = False  # what a planner reading only the topic proposes to decide on


@dataclass(frozen=True)
class Condition:
    """A condition a NUANCED answer hangs on ("if the revenue funds buses"); two stances with the
    same condition id name the same condition, whatever their words."""

    __pydantic_config__ = _STRICT
    id: str
    gist: str


@dataclass(frozen=True)
class Memory:
    """What the debate's owner already holds before it starts (an earlier debate's insight or fact)."""

    __pydantic_config__ = _STRICT
    id: str
    kind: Literal["insight", "fact"]
    text: str


# ── what an utterance means ───────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Stance:
    __pydantic_config__ = _STRICT
    question: str
    side: Side
    condition: str | None = None  # NUANCED only: what the answer hangs on


@dataclass(frozen=True)
class Claim:
    """Something the speaker puts forward as their own, or does to an earlier one of their own:
    states (new, ``id``), restates (``target``, same meaning in new words), refines (new ``id``,
    narrower, superseding ``target``), withdraws (``target``), negates (new ``id`` saying the
    opposite of ``target``). ``gist``: how a reader would put it, in its own words."""

    __pydantic_config__ = _STRICT
    act: ClaimAct
    gist: str
    id: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class Reaction:
    """The speaker's reaction to someone else's claim, point, decision or proposal (``target``)."""

    __pydantic_config__ = _STRICT
    target: str
    reaction: ReactionKind
    gist: str = ""


@dataclass(frozen=True)
class Proposal:
    __pydantic_config__ = _STRICT
    id: str
    gist: str


@dataclass(frozen=True)
class Toward:
    """Agreement or disagreement with a named participant, on a question id or a claim id."""

    __pydantic_config__ = _STRICT
    name: str
    relation: Literal["agrees", "disagrees"]
    on: str


@dataclass(frozen=True)
class ChallengeTo:
    __pydantic_config__ = _STRICT
    to: str
    gist: str


@dataclass(frozen=True)
class Meaning:
    """What an utterance means, as a careless but honest reader takes it. Never the verdict."""

    __pydantic_config__ = _STRICT
    stances: tuple[Stance, ...] = ()
    claims: tuple[Claim, ...] = ()
    reactions: tuple[Reaction, ...] = ()
    proposal: Proposal | None = None
    toward: tuple[Toward, ...] = ()
    challenges: tuple[ChallengeTo, ...] = ()
    evidence: tuple[str, ...] = ()
    move: Move | None = None  # the graph crystallizer's tag for the turn
    reframe: str | None = None  # the speaker puts the dispute as this sharper question (an id)
    crux: str | None = None  # the speaker says it all turns on this question (an id)
    off_topic: bool = False  # says nothing on any question
    usable: bool = True  # False: says nothing a reader can use (a dropped turn)
    note: str = ""  # for people: why the reading is what it is

    def __repr__(self) -> str:
        return f"Meaning({len(self.stances)} stances, {len(self.claims)} claims, {len(self.reactions)} reactions)"


@dataclass(frozen=True)
class Said:
    """One utterance: its raw text, what the speaker says when asked again in other words (the
    voice guard's retry; absent: the same text again), what it means, and the reader's slips."""

    __pydantic_config__ = _STRICT
    text: str
    again: str | None = None
    meaning: Meaning = field(default_factory=Meaning)
    slip_name: str | None = None  # a careless reader names the speaker so (a ghost) about this one
    slip_id: bool = False  # a careless reader cites an id nobody gave, about this one

    def __repr__(self) -> str:
        return f"Said({len(self.text)} characters)"


@dataclass(frozen=True)
class Turn:
    """A main-channel turn of a dialogue or graph debate (corpus order, not the app's [turn N])."""

    __pydantic_config__ = _STRICT
    n: int
    speaker: str
    kind: TurnKind
    text: str
    again: str | None = None
    meaning: Meaning = field(default_factory=Meaning)
    slip_name: str | None = None
    slip_id: bool = False

    def __repr__(self) -> str:
        return f"Turn(n={self.n}, speaker={self.speaker!r})"


@dataclass(frozen=True)
class RoomTurn:
    __pydantic_config__ = _STRICT
    speaker: str
    text: str
    again: str | None = None
    meaning: Meaning = field(default_factory=Meaning)
    slip_name: str | None = None
    slip_id: bool = False

    def __repr__(self) -> str:
        return f"RoomTurn(speaker={self.speaker!r})"


@dataclass(frozen=True)
class Room:
    """A dialogue's crux room: played when the app opens a room on question ``on``."""

    __pydantic_config__ = _STRICT
    on: str
    between: tuple[str, str]
    turns: tuple[RoomTurn, ...]


@dataclass(frozen=True)
class Round:
    """An Analyst/Critic round: the Analyst's answer, then the Critic's evaluation."""

    __pydantic_config__ = _STRICT
    n: int
    analyst: Said
    critic: Said


@dataclass(frozen=True)
class Pair:
    """Collaborate's two outputs of one phase, written side by side."""

    __pydantic_config__ = _STRICT
    architect: Said
    reviewer: Said


# ── what is true of the debate (for the metrics only) ─────────────────────────────────────────


@dataclass(frozen=True)
class Crux:
    __pydantic_config__ = _STRICT
    question: str
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class Decoy:
    __pydantic_config__ = _STRICT
    what: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class CruxOutcome:
    """Agreement on one crux of a topic that is not a yes/no question."""

    __pydantic_config__ = _STRICT
    question: str
    keywords: tuple[str, ...]
    agreement: CruxAgreement


@dataclass(frozen=True)
class PointOutcome:
    """An Analyst point's final status; ``by``: the point that superseded or negated it;
    ``keywords``: lower-case substrings every wording of the point holds (to find it in a ledger)."""

    __pydantic_config__ = _STRICT
    status: PointStatus
    keywords: tuple[str, ...]
    by: str | None = None


@dataclass(frozen=True)
class Expect:
    __pydantic_config__ = _STRICT
    verdict: Verdict
    decided_on: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    final_sides: dict[str, dict[str, FinalSide]] = field(default_factory=dict)
    cruxes: tuple[Crux, ...] = ()
    decoys: tuple[Decoy, ...] = ()
    per_crux: tuple[CruxOutcome, ...] = ()
    circling: bool = False
    circling_by_turn: int | None = None
    proposals: dict[str, ProposalStatus] = field(default_factory=dict)
    forbidden_in_speech: tuple[str, ...] = ()
    recalled: tuple[str, ...] = ()
    consensus_round: int | None = None
    unassessed_rounds: tuple[int, ...] = ()
    points: dict[str, PointOutcome] = field(default_factory=dict)
    decisions: dict[str, DecisionStatus] = field(default_factory=dict)

    @property
    def agreement(self) -> bool:
        return self.verdict in AGREEMENT_VERDICTS

    def __repr__(self) -> str:
        return "Expect(...)"


# ── the scenario ──────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Utterance:
    """Any utterance of a scenario, in play order, with where it is said (for a runner's index and
    for the tests)."""

    where: str  # "turn 3", "room q1 turn 2", "round 2 critic", "revision reviewer", "artifact"...
    speaker: str  # a participant's name; "synthesis" for the Analyst/Critic synthesis and the artifact
    said: Said | Turn | RoomTurn


@dataclass(frozen=True)
class Scenario:
    __pydantic_config__ = _STRICT
    name: str
    mode: Mode
    description: str
    topic: str
    participants: tuple[Participant, ...]
    expect: Expect
    questions: tuple[Question, ...] = ()
    conditions: tuple[Condition, ...] = ()
    memory: tuple[Memory, ...] = ()
    stories: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    max_turns: int | None = None  # dialogue, graph: the main-channel turn budget given to the app
    turns: tuple[Turn, ...] = ()
    rooms: tuple[Room, ...] = ()
    rounds: tuple[Round, ...] = ()
    synthesis: Said | None = None
    drafts: Pair | None = None
    revisions: Pair | None = None
    artifact: Said | None = None
    held_out: bool = False  # set from the file's folder, never written in a file

    def __repr__(self) -> str:
        # Short, so a failing check names the scenario without printing its speech (the held-out
        # scenarios are checked too, and must not be read while the code they measure is tuned).
        return f"Scenario({self.name!r})"

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.participants)

    def seat(self, role: str) -> Participant:
        return next(p for p in self.participants if p.role == role)

    def forbidden_for(self, name: str) -> tuple[str, ...]:
        """Every phrase ``name`` must never have on a surface: the house's and its own."""
        own = next((p.forbidden_phrases for p in self.participants if p.name == name), ())
        return HOUSE_FORBIDDEN + tuple(phrase for phrase in own if phrase not in HOUSE_FORBIDDEN)

    def utterances(self) -> Iterator[Utterance]:
        """Everything said, in the order a runner plays it."""
        for turn in self.turns:
            yield Utterance(f"turn {turn.n}", turn.speaker, turn)
        for room in self.rooms:
            for number, turn in enumerate(room.turns, 1):
                yield Utterance(f"room {room.on} turn {number}", turn.speaker, turn)
        for rnd in self.rounds:
            yield Utterance(f"round {rnd.n} analyst", self.seat("analyst").name, rnd.analyst)
            yield Utterance(f"round {rnd.n} critic", self.seat("critic").name, rnd.critic)
        if self.synthesis is not None:
            yield Utterance("synthesis", "synthesis", self.synthesis)
        for phase, pair in (("draft", self.drafts), ("revision", self.revisions)):
            if pair is not None:
                yield Utterance(f"{phase} architect", self.seat("architect").name, pair.architect)
                yield Utterance(f"{phase} reviewer", self.seat("reviewer").name, pair.reviewer)
        if self.artifact is not None:
            yield Utterance("artifact", "synthesis", self.artifact)


_SCENARIO = TypeAdapter(Scenario)


# ── reading files ─────────────────────────────────────────────────────────────────────────────


def load_corpus(root: Path = TRUTH, *, held_out: bool = False) -> list[Scenario]:
    """Every scenario of ``root`` (held_out=False) or of ``root/held_out`` (True), sorted by name."""
    folder = root / HELD_OUT if held_out else root
    scenarios = [load_scenario(path, held_out=held_out) for path in sorted(folder.glob("*.toml"))]
    return sorted(scenarios, key=lambda scenario: scenario.name)


def load_scenario(path: Path, *, held_out: bool = False) -> Scenario:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(f"{path}: not valid TOML: {exc}") from exc
    if "held_out" in data:
        raise CorpusError(f"{path}: held_out: set by the file's folder, not written in the file")
    try:
        scenario = _SCENARIO.validate_python(data)
    except ValidationError as exc:
        problems = [f"{_place(error['loc'])}: {error['msg']}" for error in exc.errors()]
        raise CorpusError(_report(path, problems)) from None
    problems = Checks(scenario).problems()
    if scenario.name != path.stem:
        problems.insert(0, f"name: {scenario.name!r} is not the file's name ({path.stem!r})")
    if problems:
        raise CorpusError(_report(path, problems))
    return replace(scenario, held_out=held_out)


def _place(loc: tuple) -> str:
    place = ""
    for part in loc:
        if isinstance(part, int):
            place += f"[{part}]"
        elif part not in ("function-after", "function-before"):
            place += f".{part}" if place else str(part)
    return place or "(file)"


def _report(path: Path, problems: list[str]) -> str:
    return f"{path}: {len(problems)} problem{'s' if len(problems) != 1 else ''}:\n" + "\n".join(
        f"  - {problem}" for problem in problems
    )


# ── what a schema cannot check ────────────────────────────────────────────────────────────────


def _listed(ids) -> str:
    return ", ".join(sorted(ids)) or "none"


class Checks:
    """Every reference a scenario makes, checked in play order: a label is declared before it is
    used, by the speaker it belongs to, and is not used after it was withdrawn or superseded."""

    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.errors: list[str] = []
        self.names = set(scenario.names())
        self.questions = {q.id for q in scenario.questions}
        self.conditions = {c.id for c in scenario.conditions}
        self.owner: dict[str, str] = {}  # claim or proposal id -> who declared it
        self.kind: dict[str, str] = {}  # id -> "claim" | "proposal"
        self.closed: dict[str, str] = {}  # claim id -> how it was closed (withdrawn, refined, negated)

    def problems(self) -> list[str]:
        s = self.s
        for label, items in (
            ("participants", [p.name for p in s.participants]),
            ("questions", [q.id for q in s.questions]),
            ("conditions", [c.id for c in s.conditions]),
            ("memory", [m.id for m in s.memory]),
        ):
            repeated = sorted({item for item in items if items.count(item) > 1})
            if repeated:
                self.error(label, f"listed twice: {', '.join(repeated)}")
        for story in s.stories:
            if story not in STORIES:
                self.error("stories", f"unknown story {story!r} (known: {', '.join(STORIES)})")
        for trait in s.traits:
            if trait not in TRAITS:
                self.error("traits", f"unknown trait {trait!r} (known: {', '.join(TRAITS)})")
        {
            DIALOGUE: self.discussion,
            GRAPH: self.discussion,
            ANALYST_CRITIC: self.analyst_critic,
            COLLABORATE: self.collaborate,
        }[s.mode]()
        self.expectations()
        return self.errors

    def error(self, place: str, message: str) -> None:
        self.errors.append(f"{place}: {message}")

    def only(self, allowed: set[str]) -> None:
        """The script sections of other modes are absent."""
        sections = {
            "turns": self.s.turns,
            "rooms": self.s.rooms,
            "rounds": self.s.rounds,
            "synthesis": self.s.synthesis,
            "drafts": self.s.drafts,
            "revisions": self.s.revisions,
            "artifact": self.s.artifact,
            "max_turns": self.s.max_turns,
        }
        for section, value in sections.items():
            if section not in allowed and value:
                self.error(section, f"not part of a {self.s.mode} scenario")

    def roles(self, wanted: tuple[str, str]) -> bool:
        roles = [p.role for p in self.s.participants]
        if sorted(r for r in roles if r) != sorted(wanted) or len(roles) != 2:
            self.error("participants", f"a {self.s.mode} scenario has exactly two participants, roles {wanted}")
            return False
        return True

    # ── per mode ──────────────────────────────────────────────────────────────────────────────

    def discussion(self) -> None:
        s = self.s
        self.only({"turns", "rooms", "max_turns"} if s.mode == DIALOGUE else {"turns", "max_turns"})
        if len(s.participants) < 2:
            self.error("participants", "at least two")
        for number, person in enumerate(s.participants):
            if person.role is not None:
                self.error(f"participants[{number}].role", f"a {s.mode} persona plays no role")
        if not s.turns:
            self.error("turns", "a discussion needs its turns")
        order = {"opening": 0, "turn": 1, "closing": 2}
        last = 0
        for index, turn in enumerate(s.turns):
            place = f"turns[{index}]"
            if turn.n != index + 1:
                self.error(f"{place}.n", f"turns are numbered 1, 2, 3... in order (found {turn.n})")
            if order[turn.kind] < last:
                self.error(f"{place}.kind", f"a {turn.kind} after a later kind (openings, turns, closings)")
            last = max(last, order[turn.kind])
            self.utterance(place, turn.speaker, turn, visible=None)
        if s.max_turns is not None and s.max_turns < 1:
            self.error("max_turns", "at least 1")
        main = dict(self.owner)
        for number, room in enumerate(s.rooms):
            place = f"rooms[{number}]"
            if room.on not in self.questions:
                self.error(f"{place}.on", f"no question {room.on!r} (the scenario has {_listed(self.questions)})")
            if len(set(room.between)) != 2 or not set(room.between) <= self.names:
                self.error(f"{place}.between", "two different participants")
            for index, turn in enumerate(room.turns):
                if turn.speaker not in room.between:
                    self.error(f"{place}.turns[{index}].speaker", f"{turn.speaker!r} is not in this room")
                elif turn.speaker != room.between[index % 2]:
                    self.error(f"{place}.turns[{index}].speaker", "a room alternates, the first of `between` first")
                # A room runs beside the main channel: it sees everything said there.
                self.utterance(f"{place}.turns[{index}]", turn.speaker, turn, visible=None, extra=main)

    def analyst_critic(self) -> None:
        s = self.s
        self.only({"rounds", "synthesis"})
        if not self.roles(("analyst", "critic")):
            return
        analyst, critic = s.seat("analyst").name, s.seat("critic").name
        if not s.rounds:
            self.error("rounds", "an Analyst/Critic scenario needs its rounds")
        if s.synthesis is None:
            self.error("synthesis", "the synthesis the Analyst/Critic debate ends on")
        for index, rnd in enumerate(s.rounds):
            place = f"rounds[{index}]"
            if rnd.n != index + 1:
                self.error(f"{place}.n", f"rounds are numbered 1, 2, 3... in order (found {rnd.n})")
            if rnd.analyst.meaning.reactions:
                self.error(f"{place}.analyst.meaning.reactions", "the Analyst answers by its own points (claims)")
            if rnd.critic.meaning.claims or rnd.critic.meaning.proposal:
                self.error(f"{place}.critic.meaning", "the Critic reacts to the Analyst's points; it states none")
            self.utterance(f"{place}.analyst", analyst, rnd.analyst, visible=None)
            self.utterance(f"{place}.critic", critic, rnd.critic, visible=None)
        if s.synthesis is not None:
            self.bare("synthesis", s.synthesis)

    def collaborate(self) -> None:
        s = self.s
        self.only({"drafts", "revisions", "artifact"})
        if not self.roles(("architect", "reviewer")):
            return
        for section in ("drafts", "revisions", "artifact"):
            if getattr(s, section) is None:
                self.error(section, "a Collaborate scenario has drafts, revisions and the artifact")
        if s.drafts is None or s.revisions is None:
            return
        names = {"architect": s.seat("architect").name, "reviewer": s.seat("reviewer").name}
        # The drafts are written side by side: each sees nothing of the other's.
        for role in ("architect", "reviewer"):
            self.utterance(f"drafts.{role}", names[role], getattr(s.drafts, role), visible=set())
            for index, claim in enumerate(getattr(s.drafts, role).meaning.claims):
                if claim.act != "states":
                    self.error(f"drafts.{role}.meaning.claims[{index}].act", "a first answer states its decisions")
        drafted = dict(self.owner)
        for role in ("architect", "reviewer"):
            self.utterance(f"revisions.{role}", names[role], getattr(s.revisions, role), visible=set(drafted))
            # The key decisions are the drafts': a revision keeps (restates) or drops (withdraws) its
            # own and reacts to the other's; what it adopts from the other is an acceptance.
            for index, claim in enumerate(getattr(s.revisions, role).meaning.claims):
                if claim.act not in ("restates", "withdraws"):
                    self.error(
                        f"revisions.{role}.meaning.claims[{index}].act",
                        "a revision restates or withdraws its draft's decisions; it takes no new one",
                    )
        if s.artifact is not None:
            self.bare("artifact", s.artifact)

    def bare(self, place: str, said: Said) -> None:
        """The synthesis and the artifact: text for the scripted synthesis model, no meaning but a note."""
        if said.meaning != Meaning(note=said.meaning.note):
            self.error(f"{place}.meaning", "a synthesis or artifact carries only a note (the verdict never reads it)")
        if said.slip_name or said.slip_id:
            self.error(place, "no reader reads the synthesis or the artifact: no slips")

    # ── one utterance ─────────────────────────────────────────────────────────────────────────

    def utterance(self, place: str, speaker: str, said, *, visible: set[str] | None, extra=None) -> None:
        """``visible``: the ids this utterance may refer to besides its speaker's own (None: every id
        declared so far); ``extra``: ids of another channel it may also see."""
        meaning = said.meaning
        if speaker not in self.names:
            self.error(f"{place}.speaker", f"{speaker!r} is not a participant ({_listed(self.names)})")
        if not said.text.strip() and meaning.usable:
            self.error(f"{place}.text", "empty: mark it meaning.usable = false (a dropped turn)")
        if said.again is not None and not said.again.strip():
            self.error(f"{place}.again", "empty")
        if said.slip_name is not None and said.slip_name in self.names:
            self.error(f"{place}.slip_name", "a slip is a name nobody in the debate has")
        if not meaning.usable and meaning != Meaning(usable=False, note=meaning.note, off_topic=meaning.off_topic):
            self.error(f"{place}.meaning", "an unusable turn means nothing: no stances, claims or reactions")
        known = dict(extra or {})
        known.update(self.owner)

        def sees(label: str) -> bool:
            if label not in known:
                return False
            return visible is None or label in visible or known[label] == speaker

        m = f"{place}.meaning"
        for index, stance in enumerate(meaning.stances):
            if stance.question not in self.questions:
                self.error(
                    f"{m}.stances[{index}].question", f"no question {stance.question!r} ({_listed(self.questions)})"
                )
            if stance.condition is not None and stance.side != "NUANCED":
                self.error(f"{m}.stances[{index}].condition", "only a NUANCED answer hangs on a condition")
            if stance.condition is not None and stance.condition not in self.conditions:
                self.error(
                    f"{m}.stances[{index}].condition", f"no condition {stance.condition!r} ({_listed(self.conditions)})"
                )
        for index, claim in enumerate(meaning.claims):
            self.claim(f"{m}.claims[{index}]", speaker, claim, known)
        for index, reaction in enumerate(meaning.reactions):
            where = f"{m}.reactions[{index}].target"
            if not sees(reaction.target):
                self.error(where, f"{reaction.target!r} was not said before where this speaker could hear it")
            elif known[reaction.target] == speaker:
                self.error(where, f"{reaction.target!r} is the speaker's own: a reaction is to someone else's")
        if meaning.proposal is not None:
            self.declare(f"{m}.proposal.id", meaning.proposal.id, speaker, "proposal")
        for index, toward in enumerate(meaning.toward):
            if toward.name not in self.names or toward.name == speaker:
                self.error(f"{m}.toward[{index}].name", f"{toward.name!r} is not another participant")
            if toward.on not in self.questions and not sees(toward.on):
                self.error(f"{m}.toward[{index}].on", f"{toward.on!r} is no question and nothing said before")
        for index, challenge in enumerate(meaning.challenges):
            if challenge.to not in self.names or challenge.to == speaker:
                self.error(f"{m}.challenges[{index}].to", f"{challenge.to!r} is not another participant")
        for key in ("reframe", "crux"):
            value = getattr(meaning, key)
            if value is not None and value not in self.questions:
                self.error(f"{m}.{key}", f"no question {value!r} ({_listed(self.questions)})")

    def claim(self, place: str, speaker: str, claim: Claim, known: dict[str, str]) -> None:
        new = claim.act in ("states", "refines", "negates")
        has_target = claim.act != "states"
        if new and not claim.id:
            self.error(f"{place}.id", f"a claim that {claim.act} needs its new id")
        if not new and claim.id:
            self.error(f"{place}.id", f"a claim that {claim.act} makes no new id (its target is the claim)")
        if has_target and not claim.target:
            self.error(f"{place}.target", f"a claim that {claim.act} needs the earlier claim it {claim.act[:-1]}s")
        if not has_target and claim.target:
            self.error(f"{place}.target", "a new claim has no target")
        if claim.target:
            if known.get(claim.target) != speaker:
                self.error(f"{place}.target", f"{claim.target!r} is not an earlier claim of {speaker}'s")
            elif claim.target in self.closed:
                self.error(f"{place}.target", f"{claim.target!r} was already {self.closed[claim.target]}")
        if new and claim.id:
            self.declare(f"{place}.id", claim.id, speaker, "claim")
        if claim.target and claim.act in ("withdraws", "refines", "negates") and claim.target not in self.closed:
            self.closed[claim.target] = {"withdraws": "withdrawn", "refines": "refined", "negates": "negated"}[
                claim.act
            ]

    def declare(self, place: str, label: str, speaker: str, kind: str) -> None:
        if label in self.owner or label in self.questions or label in self.conditions:
            self.error(place, f"{label!r} is already used in this scenario")
            return
        self.owner[label], self.kind[label] = speaker, kind

    # ── the expected outcome ──────────────────────────────────────────────────────────────────

    def expectations(self) -> None:
        s, e = self.s, self.s.expect
        claims = {label for label, kind in self.kind.items() if kind == "claim"}
        proposals = {label for label, kind in self.kind.items() if kind == "proposal"}
        for label in e.decided_on:
            if label not in self.questions:
                self.error("expect.decided_on", f"no question {label!r} ({_listed(self.questions)})")
        for label in e.conditions:
            if label not in self.conditions:
                self.error("expect.conditions", f"no condition {label!r} ({_listed(self.conditions)})")
        for question, sides in e.final_sides.items():
            if question not in self.questions:
                self.error("expect.final_sides", f"no question {question!r}")
            for name in sides:
                if name not in self.names:
                    self.error(f"expect.final_sides.{question}", f"{name!r} is not a participant")
        if e.verdict == "conditional_agreement" and not e.conditions:
            self.error("expect.conditions", "a conditional agreement names its condition(s)")
        if (e.verdict == "not_yes_no") != bool(e.per_crux):
            self.error(
                "expect.per_crux", "a topic that is not a yes/no question, and only one, reports agreement per crux"
            )
        if e.verdict == "not_yes_no" and e.decided_on:
            self.error("expect.decided_on", "not a yes/no question: nothing is decided on")
        if s.mode in (DIALOGUE, GRAPH):
            if e.verdict != "not_yes_no" and not e.decided_on:
                self.error("expect.decided_on", "the question(s) the verdict is about")
            if set(e.final_sides) != set(e.decided_on):
                self.error("expect.final_sides", "one table of final sides per decided question")
            for question, sides in e.final_sides.items():
                if set(sides) != self.names:
                    self.error(f"expect.final_sides.{question}", f"every participant's side ({_listed(self.names)})")
            if e.circling_by_turn is not None and not (e.circling and 1 <= e.circling_by_turn <= len(s.turns)):
                self.error("expect.circling_by_turn", "a turn of the scenario, when circling is expected")
        if set(e.proposals) != proposals:
            self.error("expect.proposals", f"the outcome of every proposal made ({_listed(proposals)})")
        for label in e.recalled:
            if label not in {m.id for m in s.memory}:
                self.error("expect.recalled", f"no memory {label!r}")
        for phrase in e.forbidden_in_speech:
            own = {p for person in s.participants for p in person.forbidden_phrases}
            if phrase not in HOUSE_FORBIDDEN and phrase not in own:
                self.error("expect.forbidden_in_speech", f"{phrase!r} is neither the house's nor a participant's own")
        if s.mode == ANALYST_CRITIC:
            self.points_expected(claims)
        elif e.points or e.consensus_round or e.unassessed_rounds:
            self.error("expect", "points, consensus_round and unassessed_rounds are Analyst/Critic outcomes")
        if s.mode == COLLABORATE:
            if set(e.decisions) != claims:
                self.error("expect.decisions", f"the outcome of every decision taken ({_listed(claims)})")
        elif e.decisions:
            self.error("expect.decisions", "decisions are Collaborate outcomes")

    def points_expected(self, claims: set[str]) -> None:
        s, e = self.s, self.s.expect
        if set(e.points) != claims:
            self.error("expect.points", f"the final status of every Analyst point ({_listed(claims)})")
        for label, outcome in e.points.items():
            if not outcome.keywords:
                self.error(f"expect.points.{label}.keywords", "at least one")
            replaced = outcome.status in ("superseded", "negated")
            if replaced and outcome.by not in claims:
                self.error(f"expect.points.{label}.by", "the point that superseded or negated it")
            if not replaced and outcome.by is not None:
                self.error(
                    f"expect.points.{label}.by", f"only a superseded or negated point has one ({outcome.status})"
                )
        rounds = {r.n for r in s.rounds}
        if (e.verdict == "consensus") != (e.consensus_round is not None):
            self.error(
                "expect.consensus_round", "the round consensus is reached in, exactly when the verdict is consensus"
            )
        if e.consensus_round is not None and (
            e.consensus_round not in rounds or e.consensus_round in e.unassessed_rounds
        ):
            self.error("expect.consensus_round", "an assessed round of the scenario")
        if not set(e.unassessed_rounds) <= rounds:
            self.error("expect.unassessed_rounds", "rounds of the scenario")
