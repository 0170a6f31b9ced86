"""The speakers and reader of a debate on an open question ("What should the city do about
traffic?"), for the dialogue and graph tests: each speaker talks as a capable model does, rewording
its condition every time; the scripted reader answers by the call's tag and schema only, and takes
each NUANCED answer to hang on the condition ``conditions`` gives its speaker, in its own words."""

from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading, Said
from devtools.scripted_debate import DebateScript

TOPIC = "What should the city do about traffic?"
QUESTION = "Should the city charge drivers a fee to enter the centre at peak hours?"
INES, BRAM, CLEO = "Ines Tarrant", "Bram Okafor", "Cleo Varga"

# What each says, turn by turn, as a capable model speaks: rewording its condition every time.
SPEECH = {
    INES: {
        "opening": (
            "Ines, transport planning. A peak-hour charge on the centre is the one lever that moves "
            "numbers, but only if the money it raises runs more buses. Without that it prices people out."
        ),
        "dialogue": "Bram, I'd back the charge the day its revenue is fenced off for the bus network, and not before.",
        "closing": "My answer: charge drivers at peak hours, provided every pound it raises goes to buses.",
    },
    BRAM: {
        "opening": (
            "Bram, I run a delivery firm in the old town. I could live with a fee, but I won't pay to "
            "subsidise a council budget hole."
        ),
        "dialogue": "Ines, put the charge's takings into buses in writing and I'm with you.",
        "closing": "A fee at peak hours, yes, as long as the money funds the buses and nothing else.",
    },
    CLEO: {
        "opening": (
            "Cleo, I chair the residents' association. Charging drivers is fair if the people who have "
            "no car get something back: more buses, more often."
        ),
        "dialogue": "Cleo again: the charge earns its keep only when its revenue buys bus service.",
        "closing": "Charge them, on one condition: the revenue pays for buses.",
    },
}
# What the scripted reader takes each one's NUANCED answer to hang on: the same condition, in the
# reader's own words, never the same words twice; or three different conditions.
SAME_CONDITION = {
    INES: "the fee revenue is spent on buses",
    BRAM: "every pound the charge raises goes to the buses",
    CLEO: "the money from the charge funds the bus network",
}
DIFFERENT_CONDITIONS = {
    INES: "the fee revenue is spent on buses",
    BRAM: "deliveries before 7 a.m. are exempt",
    CLEO: "residents of the centre pay nothing",
}


class OpenQuestionScript(DebateScript):
    """The dialogue's speakers and reader on an open topic. ``plan``: "question" (the planner
    proposes QUESTION), "none" (no yes/no question fits the topic); ``conditions``: what each
    speaker's NUANCED answer hangs on."""

    def __init__(self, *, plan="question", conditions=SAME_CONDITION, **options):
        super().__init__(**options)
        self.plan = plan
        self.conditions = conditions
        self.digests: list[str] = []  # the system prompts of the ledger's digests

    def respond(self, body: dict, call: Call) -> Reply:
        if Reading(body, call).title in ("LedgerDigest", "WindowDigest"):
            self.digests.append("\n".join(block.get("text", "") for block in body.get("system", [])))
        return super().respond(body, call)

    def _structured_AspectPlan(self, reading: Reading) -> dict:
        aspects = [
            {"label": "Pricing", "description": "Whether to charge drivers, and when."},
            {"label": "Buses", "description": "What the city runs instead."},
        ]
        if self.plan == "none":
            return {"aspects": aspects, "question": None, "no_yes_no_question_fits": True}
        return {"aspects": aspects, "question": QUESTION, "no_yes_no_question_fits": False}

    def _structured_Crystallization(self, reading: Reading) -> dict:
        """Graph mode: the map follows each turn's move and maps no dispute (nobody says YES
        against NO on anything)."""
        mapped = super()._structured_Crystallization(reading)
        return {"moves": mapped["moves"], **{key: [] for key in mapped if key != "moves"}}

    def _persona_turn_text(self, reading: Reading) -> str:
        name = reading.name_of(reading.call.persona)
        phase = reading.call.phase
        kind = "opening" if phase == "opening" else "closing" if phase == "closing" else "dialogue"
        return SPEECH[name][kind]

    def position_update(self, reading: Reading, said: Said, before: list[Said]) -> dict:
        return {
            "overall_stance": "Charge drivers, on a condition.",
            "topic_side": "NUANCED",
            "topic_condition": self.conditions[said.name],
            "evidence": [],
            "challenges_raised": [],
        }
