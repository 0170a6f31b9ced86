"""The truth suite's scenarios: what each persona says, turn by turn, in plain and varied words, and,
apart from it, what is true of the debate. Data only.

The speech is hand-written natural language (paraphrases, negations, hedges, sarcasm, decoy
quibbles that are not cruxes, a persona who changes the subject); it is never a template any
extractor parses. The scripted speaker (truth_script.py) says a persona's lines in order; the
extraction calls are answered by a naive reader (reading.py) that sees only what the prompt shows.
The ground truth (``expect``, ``cruxes``, ``points``, ``recall``) is read by the metrics alone
(truth_metrics.py), never by the speaker or the reader.

A voice's ``lines`` are its main-channel turns in order (the opening first); the last one is said
again if the debate asks for more (a closing ends on it). ``room`` is what it says in a crux room.
In the Analyst/Critic mode ``lines`` are its answers round by round (the Analyst's last line is its
synthesis); in the Collaborate mode, its first answer and its revision.
"""

from __future__ import annotations

from dataclasses import dataclass

DIALOGUE, GRAPH, ANALYST_CRITIC, COLLABORATE = "dialogue", "graph", "analyst_critic", "collaborate"
MODES = (DIALOGUE, GRAPH, ANALYST_CRITIC, COLLABORATE)
AGREE, DISAGREE, UNDETERMINED = "agree", "disagree", "undetermined"


@dataclass(frozen=True)
class Voice:
    name: str
    lines: tuple[str, ...]
    room: tuple[str, ...] = ()


@dataclass(frozen=True)
class Crux:
    """A real crux: a card, map dispute or open question finds it when its text holds every keyword
    (lower case, matched as substrings)."""

    question: str
    keywords: tuple[str, ...]


@dataclass(frozen=True)
class TruthPoint:
    """An Analyst/Critic proposition and the Critic's real verdict on it in the affirmative
    (``accepted``); a ledger point about it (holding every keyword) that says otherwise is inverted."""

    keywords: tuple[str, ...]
    affirmative: str  # the proposition, said plainly
    accepted: bool


@dataclass(frozen=True)
class RecallProbe:
    """After the debate, its owner starts debates on these topics: facts it left belong to the
    related ones only."""

    related: tuple[str, ...]
    unrelated: tuple[str, ...]


@dataclass(frozen=True)
class TruthScenario:
    name: str
    description: str
    modes: tuple[str, ...]
    topic: str
    voices: tuple[Voice, ...]
    expect: str  # AGREE | DISAGREE | UNDETERMINED: where the debate really landed
    cruxes: tuple[Crux, ...] = ()
    decoys: tuple[str, ...] = ()  # what is planted to mislead (documentation for the report)
    points: tuple[TruthPoint, ...] = ()
    recall: RecallProbe | None = None
    max_turns: int = 12


GOLD = "Is gold a better hedge than bonds?"

SCENARIOS = (
    TruthScenario(
        name="gold_hedge_with_a_decoy",
        description="Two personas split on the question; a third agrees with the first but keeps "
        "correcting her on a date, a quibble that is no crux.",
        modes=(DIALOGUE, GRAPH),
        topic=GOLD,
        voices=(
            Voice(
                "Ada Hawk",
                (
                    "I'm Ada. Gold has protected wealth through every currency crisis I have studied, so my answer "
                    "is yes: gold is the better hedge.",
                    "Bram, when Nixon closed the gold window in 1973 the savers who held gold kept their wealth. "
                    "Gold did the work bonds could not.",
                    "I won't pretend gold is perfect; it pays nothing. Still, against the shocks that actually hurt "
                    "savers, gold beats bonds as a hedge.",
                    "Bram, no doubt bonds are smoother. Smooth is not the same as safe. Gold is the better hedge when "
                    "the currency itself is the risk.",
                    "Cleo, fine, have your date. It changes nothing: gold is still the better hedge.",
                    "Where I land: yes. Gold remains a better hedge than bonds for the shocks that matter.",
                ),
                room=(
                    "Bram, for me it is simple: gold is a better hedge than bonds whenever real rates go negative.",
                    "You keep pointing at coupons. A coupon paid in a debased currency hedges nothing; gold does.",
                    "I stay where I am: yes, gold is the better hedge.",
                ),
            ),
            Voice(
                "Bram Dove",
                (
                    "Bram here. Bonds pay you to wait and gold does not, so no, gold is not the better hedge.",
                    "Ada, I don't disagree that gold shone in the seventies. One good decade doesn't make gold the "
                    "better hedge.",
                    "Bonds hedge the recession, which is the risk most savers actually face. Oh sure, gold is a "
                    "wonderful hedge, as long as you never need income from it.",
                    "Ada, smooth is exactly what a hedge should be. I'm not persuaded gold beats bonds at that job.",
                    "Cleo, I'll leave the dates to you two. On the question itself, gold is no better a hedge.",
                    "My answer stays no. Gold is not a better hedge than bonds for the savers I worry about.",
                ),
                room=(
                    "Ada, a hedge that pays nothing for twenty years is a cost, so no, gold is not the better hedge.",
                    "Negative real rates come and go. Bonds hedge the slump every time; gold hedges it some of the time.",
                    "I have not moved: gold is not a better hedge than bonds.",
                ),
            ),
            Voice(
                "Cleo Quant",
                (
                    "I'm Cleo. I mostly side with Ada here: gold is the better hedge when inflation runs hot.",
                    "Ada, you're wrong about the date: Nixon closed the gold window in 1971, not 1973.",
                    "Ada, you're wrong about the date again: the gold window closed in 1971.",
                    "Ada, you are wrong about that date, it was 1971. On the hedge itself, yes, gold beats bonds.",
                    "Ada, still wrong about the date: 1971. The rest of your case I share.",
                    "I end where I began: yes, gold is the better hedge.",
                ),
                room=(
                    "Ada, the record is plain: the gold window closed in August 1971.",
                    "It was 1971, whatever else we agree on.",
                    "1971. I will not budge on the date.",
                ),
            ),
        ),
        expect=DISAGREE,
        cruxes=(Crux(GOLD, ("gold", "hedge")),),
        decoys=("Cleo's repeated correction of a date (1971, not 1973): a contradiction, not a crux",),
        max_turns=15,
    ),
    TruthScenario(
        name="agree_in_other_words",
        description="Two personas who agree throughout, in paraphrase, with negated disagreement "
        "and a sarcastic aside about something else.",
        modes=(DIALOGUE, GRAPH),
        topic="Should central banks publish their rate forecasts?",
        voices=(
            Voice(
                "Dina Open",
                (
                    "I'm Dina. Central banks publishing their rate forecasts is the right call: markets stop "
                    "guessing and start planning.",
                    "Eli, I'd go further than you: a bank that publishes its rate path has to live with it, and "
                    "that discipline is healthy.",
                    "There are risks when a forecast turns out wrong. Even so, published forecasts beat a "
                    "guessing game.",
                    "Eli, we keep arriving at the same place from different roads, which I take as a good sign.",
                    "So yes, banks should publish their rate forecasts. On that Eli and I never really differed.",
                ),
                room=("I think we agree: banks should publish their rate forecasts.",),
            ),
            Voice(
                "Eli Clear",
                (
                    "Eli here. I'd say so too: central banks ought to publish where they expect rates to go.",
                    "Dina, you're not wrong, and I won't pretend otherwise. Guidance only works if the path is known.",
                    "Oh sure, secrecy worked wonders in the seventies. Publishing the rate forecast is the better "
                    "habit for a central bank.",
                    "Dina, same conclusion here, even if I get there through credibility rather than discipline.",
                    "My answer is yes. I don't disagree with a word Dina said.",
                ),
                room=("Yes, publish the rate forecasts; Dina and I are on the same side.",),
            ),
        ),
        expect=AGREE,
        decoys=("'you're not wrong' and 'I don't disagree': negated contradictions",),
        recall=RecallProbe(
            related=("Should central banks publish their interest rate projections?",),
            unrelated=("How often should a vegetable garden be watered?", "Is chess a sport?"),
        ),
        max_turns=10,
    ),
    TruthScenario(
        name="one_changes_the_subject",
        description="One persona answers the question; the other never does (he talks about trains and "
        "coffee). Nothing is disputed, and there is no consensus either: undetermined.",
        modes=(DIALOGUE, GRAPH),
        topic="Will remote work outlast the decade?",
        voices=(
            Voice(
                "Fay Stay",
                (
                    "I'm Fay. Yes, remote work will outlast the decade; the tools and the habits are here to stay.",
                    "Gus, whatever the trains do, remote work is not going away before the decade is out.",
                    "Companies that forced everyone back lost people. Remote work will outlast this decade.",
                    "Gus, I'll take that as a pass. My answer remains yes: remote work outlasts the decade.",
                ),
            ),
            Voice(
                "Gus Drift",
                (
                    "I'm Gus. Before we get to that, can we talk about how bad the trains into the city have become?",
                    "Fay, the trains again: three cancellations this week, and nobody at the rail company answers "
                    "the phone.",
                    "Speaking of which, the new coffee place by the station is excellent. Worth the walk.",
                    "I'd rather not pick a side today. Let me tell you about the timetable instead.",
                ),
            ),
        ),
        expect=UNDETERMINED,
        decoys=("a persona who never answers the question",),
        max_turns=10,
    ),
    TruthScenario(
        name="critic_accepts_a_negation",
        description="The Critic rejects the Analyst's first point, then 'agrees' to its negation while "
        "the Analyst still holds it: the point stays contested; no consensus.",
        modes=(ANALYST_CRITIC,),
        topic="Should savers hold gold?",
        voices=(
            Voice(
                "Ann Lytic",
                (
                    "1. Gold protects savers against inflation. 2. Bonds beat gold over long horizons.",
                    "1. Gold protects savers against inflation over decades, whatever a bad decade says. "
                    "2. Bonds beat gold over long horizons, and I keep that.",
                    "1. Gold protects savers against inflation across whole decades. "
                    "2. Bonds beat gold over long horizons.",
                    "Synthesis: hold mostly bonds; whether gold protects against inflation is still disputed.",
                ),
            ),
            Voice(
                "Cris Tick",
                (
                    "Point two holds: the long-run record is clear. Point one does not hold; in the 1980s gold "
                    "lost half its value while prices kept rising.",
                    "On the second point we agree. On the first I stay where I was, and I will say it plainly: "
                    "I agree that gold does not protect savers against inflation.",
                    "The second point stands. As for the first, I agree that gold does not protect savers against "
                    "inflation, not over decades and not over years.",
                ),
            ),
        ),
        expect=DISAGREE,
        cruxes=(Crux("Does gold protect savers against inflation?", ("gold", "protect")),),
        decoys=("the Critic's 'I agree that gold does not protect...': agreement with the negation",),
        points=(
            TruthPoint(("gold", "protect", "inflation"), "Gold protects savers against inflation", accepted=False),
            TruthPoint(("bonds", "beat", "gold"), "Bonds beat gold over long horizons", accepted=True),
        ),
        max_turns=3,
    ),
    TruthScenario(
        name="critic_comes_round",
        description="The Critic contests one point, the Analyst puts a number on it, and the Critic accepts "
        "both, in hedged words: a real consensus, whose agreed points are remembered.",
        modes=(ANALYST_CRITIC,),
        topic="Should a retail investor prefer index funds?",
        voices=(
            Voice(
                "Ida Index",
                (
                    "1. Index funds beat most active managers over ten years. "
                    "2. High fees compound into a large drag on returns.",
                    "1. Index funds beat most active managers over ten years. "
                    "2. High fees compound into a drag of about a fifth of returns over thirty years.",
                    "1. Index funds beat most active managers over ten years. "
                    "2. High fees compound into a drag of about a fifth of returns over thirty years.",
                    "Synthesis: a retail investor should prefer broad index funds and keep fees low.",
                ),
            ),
            Voice(
                "Val Critic",
                (
                    "Point one holds, and the ten-year scorecards back it. Point two is overstated: 'large' is "
                    "doing a lot of work there.",
                    "Both points now hold. I can't disagree with the second one once it has a number on it.",
                    "Both points stand, as before.",
                ),
            ),
        ),
        expect=AGREE,
        points=(
            TruthPoint(("index funds", "active managers"), "Index funds beat most active managers", accepted=True),
            TruthPoint(("fees", "drag"), "High fees compound into a drag on returns", accepted=True),
        ),
        recall=RecallProbe(
            related=("Do index funds beat active managers over a decade?",),
            unrelated=(
                "Should the city plant more trees along its cycle lanes?",
                "What makes a sourdough starter healthy?",
                "Is remote work good for junior engineers?",
            ),
        ),
        max_turns=3,
    ),
    TruthScenario(
        name="collaborators_agree",
        description="Architect and Reviewer propose the same backup design in their own words.",
        modes=(COLLABORATE,),
        topic="Design a nightly backup for a small team's Postgres database.",
        voices=(
            Voice(
                "Arch Plan",
                (
                    "## Plan\n\n- Take a nightly pg_dump at 02:00 and copy it off the machine.\n"
                    "- Keep fourteen daily copies and twelve monthly ones.\n- Test a restore every month.",
                    "## Plan, revised\n\n- Take a nightly pg_dump at 02:00 and copy it to object storage in "
                    "another region.\n- Keep fourteen daily copies and twelve monthly ones.\n"
                    "- Test a restore every month, as the Reviewer asks too.",
                ),
            ),
            Voice(
                "Rev Check",
                (
                    "## Review\n\n- A nightly dump is enough for a team this size.\n- The copies must leave the "
                    "machine, ideally the region.\n- A backup nobody restored is a hope, not a backup: test it.",
                    "## Review, revised\n\n- The Architect's nightly pg_dump to another region is right.\n"
                    "- Fourteen daily and twelve monthly copies are fine.\n- I agree with the monthly restore test.",
                ),
            ),
        ),
        expect=AGREE,
        max_turns=5,
    ),
    TruthScenario(
        name="collaborators_split_on_storage",
        description="The Reviewer rejects where the Architect stores photos; a mild remark about a queue's "
        "name is no open question.",
        modes=(COLLABORATE,),
        topic="Design the storage for a photo-sharing app.",
        voices=(
            Voice(
                "Arch Plan",
                (
                    "## Storage\n\n- Store the photos in Postgres as large objects, next to their metadata.\n"
                    "- A thumbnail queue makes small copies in the background.",
                    "## Storage, revised\n\n- Store the photos in Postgres as large objects; one system is "
                    "simpler to run.\n- A thumbnail queue makes small copies in the background.",
                ),
            ),
            Voice(
                "Rev Check",
                (
                    "## Review\n\n- Storing the photos in Postgres is wrong: object storage is cheaper and scales.\n"
                    "- My only objection to the thumbnail queue is its name.",
                    "## Review, revised\n\n- I still reject storing the photos in Postgres; put them in object "
                    "storage and keep only metadata in the database.\n"
                    "- My only objection to the thumbnail queue is its name.",
                ),
            ),
        ),
        expect=DISAGREE,
        cruxes=(Crux("Should the photos be stored in Postgres?", ("photo", "postgres")),),
        decoys=("'my only objection to the thumbnail queue is its name'",),
        max_turns=5,
    ),
)
SCENARIOS_BY_NAME = {scenario.name: scenario for scenario in SCENARIOS}
SHARED = tuple(s.name for s in SCENARIOS if DIALOGUE in s.modes and GRAPH in s.modes)  # graph vs dialogue


def truth_scenarios(only: list[str] | None = None) -> list[TruthScenario]:
    if only:
        unknown = set(only) - set(SCENARIOS_BY_NAME)
        if unknown:
            raise KeyError(", ".join(sorted(unknown)))
        return [SCENARIOS_BY_NAME[name] for name in only]
    return list(SCENARIOS)
