"""A scripted debate for the fake Messages API: answers every kind of call the orchestrator makes
(aspect plan, persona turns, disagreement scans, exit checks, crux cards, evidence ledger) with
plausible, deterministic output, so the real SDK, orchestrator and pages can run end to end.

What a call is comes from the call itself, never from its prompt's wording: a structured call by its
schema's title, a spoken one by the gateway's role and phase; who speaks, to whom, in which round,
about which turns, from its tag (the request's X-Faultline-Call header: ids only). Names and what
was said come from the prompt's data lines only, transcript lines and item lines
(devtools/prompt_reading.py): a participant's name from its ``[persona-id] Name`` line, a message
from its ``[turn N] Name: text`` line. A structured answer names a participant by that persona id,
as the app asks. Instructions and section headers are never read (the test suite rewords them on
every run).

Its regular expressions, besides prompt_reading's two (the data lines), read only the text of a
data line, never a prompt's wording:
- in a transcript line's text, what this script's own personas say (``CONCEDED``: "I concede that
  ... (point"; ``WRONG``: "Name, you are wrong about the timing"), for the ledger updates;
- in a corpus excerpt's item text (``[C1] (source) text``), its sentences (``SENTENCE``), for the
  persona builder's quotes.

    script = DebateScript(dispute="persistent", latency=0.05)
    with FakeMessagesAPI(responder=script.respond) as api: ...
"""

from __future__ import annotations

import itertools
import re
import threading
from dataclasses import dataclass, field

from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading, Said, digest_answer

QUIBBLES = [
    "Was the 1970s inflation mostly an oil shock?",
    "Is a basis point one hundredth of a percent?",
    "Did the gold standard end in 1971?",
    "Are index funds older than ETFs?",
    "Is the median more robust than the mean?",
    "Was Bretton Woods signed in New Hampshire?",
    "Do central banks publish minutes?",
    "Is a recession two quarters of decline?",
]
MEMORY_EVIDENCE = "the 1970s gold price data"
MEMORY_CHALLENGE = "Show that the 1970s gold price data still applies after 1980"
MEMORY_CONCESSIONS = ["short-run inflation hurts savers", "central banks misjudged 2021", "gold pays no yield"]
ANSWER_OPENING = "To your interjection:"  # how a scripted persona's answer to the owner begins
HOSTILE = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'
FORBIDDEN_SAMPLE = "That's a great point"
# A quote the scripted persona builder makes up: it must never reach a saved persona.
MADE_UP_QUOTE = "Money is a promise the state keeps only when it is cheaper than breaking it."
# In a transcript line's text: what this script's personas say (see the module's docstring).
CONCEDED = re.compile(r"I concede that (.+?) \(point")
WRONG = re.compile(r"(.+?), you are wrong about the timing")
# In a corpus excerpt's text: a sentence a quote can be copied from.
SENTENCE = re.compile(r"[A-Z][^.!?\n]{30,200}[.!?]")


@dataclass
class DebateScript:
    # "persistent": the first two personas clash on one question in every window (one room opens);
    # "quibbles": a different one-off disagreement each window (no room should open);
    # "one_crux_two_wordings": the first persona clashes with each of the others on one question,
    # worded differently for each pair (ONE_CRUX_WORDINGS), never citing a known id; "none".
    dispute: str = "persistent"
    surface_after: int | None = 4  # room messages before the exit check says the crux surfaced; None: never
    latency: float = 0.0
    extraction_latency: float | None = None  # defaults to latency
    hostile: bool = False  # persona text carries <script> and onerror payloads
    # A persona offered passages of its own corpus (lines tagged "[C1] (source) ...") cites the first.
    cite_own_writing: bool = False
    forbidden_first_attempt: bool = False  # each persona's first draft uses a forbidden phrase
    # The first persona cites EVIDENCE early and never answers the challenge to it; the third
    # concedes now and then: what the blackboard must remember (three aspects).
    memory: bool = False
    # In the dialogue the first persona and the others restate one disagreement in the same words,
    # never citing anything new: the channel goes in circles (orchestration/circling.py).
    circling: bool = False
    # ...each turn in words of its own (CIRCLING_IN_NEW_WORDS): the same point, few shared words.
    in_new_words: bool = False
    chunk_size: int = 12
    chunk_delay: float = 0.0
    calls: dict = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _counter: itertools.count = field(default_factory=itertools.count, repr=False)
    _drafted: set = field(default_factory=set, repr=False)

    def _count(self, kind: str) -> int:
        with self._lock:
            self.calls[kind] = self.calls.get(kind, 0) + 1
            return self.calls[kind]

    def respond(self, body: dict, call: Call) -> Reply:
        reading = Reading(body, call)
        if title := reading.title:
            self._count(title)
            handler = getattr(self, f"_structured_{title}", None)
            latency = self.latency if self.extraction_latency is None else self.extraction_latency
            return Reply.json(handler(reading) if handler else {}, latency=latency)
        if role := self._collaboration_role(call):
            self._count(role)
            return Reply.says(
                self._collaboration_output(role, call),
                latency=self.latency,
                chunk_size=self.chunk_size,
                chunk_delay=self.chunk_delay,
            )
        self._count("persona")
        return Reply.says(
            self._persona_turn(reading),
            latency=self.latency,
            chunk_size=self.chunk_size,
            chunk_delay=self.chunk_delay,
        )

    # ── the Collaborate mode's roles (orchestration/modes/collaborate/) ─────────────────────

    @staticmethod
    def _collaboration_role(call: Call) -> str:
        if call.phase == "collaborate_artifact":
            return "artifact"
        return call.role if call.role in ("architect", "reviewer") else ""

    def _collaboration_output(self, role: str, call: Call) -> str:
        hostile = f"\n\n{HOSTILE}" if self.hostile else ""
        if role == "artifact":
            return (
                "# Shared design\n\n## Structure\n\n- One service, one database, a queue for the slow work.\n\n"
                f"## Risks\n\n- Rate limits on the public endpoint.\n\n## Open questions\n\n- Who owns the data?{hostile}"
            )
        name = role.capitalize()
        stage = "Revised" if call.phase == "collaborate_revision" else "First"
        points = "\n".join(
            f"{n}. {name} point {n}: a sentence long enough to stream in several pieces over time." for n in range(1, 7)
        )
        return f"## {name}: {stage} answer\n\n{points}{hostile}"

    def _structured_KeyDecisions(self, reading: Reading) -> dict:
        """The key decisions of the two first answers (their transcript lines, by turn): one each."""
        return {
            "decisions": [
                {"turn": said.turn, "decision": f"the {said.name}'s plan as its first point sets it out"}
                for said in reading.said
            ],
            "question": None,
            "no_yes_no_question_fits": False,
        }

    def _structured_DecisionReview(self, reading: Reading) -> dict:
        """Each revision accepts the other's key decisions (by the ids it was shown) and keeps its own."""
        return {
            "decisions": [
                {"decision": item.id, "kept": True, "reaction": "accepts"} for item in reading.items.values()
            ],
            "answers": [],
        }

    # ── persona turns ─────────────────────────────────────────────────────────────────────────

    @staticmethod
    def offers_own_writing(reading: Reading) -> bool:
        """Whether the turn's context offers a passage of the persona's own writing to cite: an
        item line ``[C1] (source) text``, the tag a citation names (orchestration/citing.py)."""
        return "C1" in reading.items

    def _persona_turn(self, reading: Reading) -> str:
        text = self._persona_turn_text(reading)
        if self.cite_own_writing and self.offers_own_writing(reading):
            return f"{text} As I have written before [C1]."
        return text

    @staticmethod
    def _addressee(reading: Reading) -> str:
        """Whom the turn answers (its tag's addressee), by the name its participant line gives."""
        return reading.name_of(reading.call.addressee) or "everyone"

    def _persona_turn_text(self, reading: Reading) -> str:
        call = reading.call
        if role_turn := self._analyst_critic_turn(call):
            return role_turn
        # Its name, as its participant line gives it (the tag says which persona speaks).
        name = reading.name_of(call.persona) or call.persona
        number = next(self._counter)
        if self.memory:
            return self._memory_turn(name, reading, number)
        if self.circling and call.phase.startswith("dialogue"):
            return self._circling_turn(name, reading, number)
        other = self._addressee(reading)
        if self.forbidden_first_attempt:
            with self._lock:  # a persona's first call only: its redraft is its second
                first = call.persona not in self._drafted
                self._drafted.add(call.persona)
            if first:
                return f"{FORBIDDEN_SAMPLE}, {other}. I still think the numbers favour my side."
        hostile = f" {HOSTILE}" if self.hostile and number % 3 == 0 else ""
        if call.phase == "opening":
            return (
                f"I am {name} and I come at this from where I stand. The evidence I trust points one way. "
                f"Point {number}: the long run matters more than the next quarter.{hostile}"
            )
        if call.phase == "closing":
            return f"Closing for {name}: I conceded the timing, not the direction. Point {number}.{hostile}"
        if call.phase == "dialogue_answer":  # the owner's interjection, answered (debates/services/interjections.py)
            return f"{ANSWER_OPENING} {name} answers you directly: the record settles it. Point {number}.{hostile}"
        if call.phase.startswith("crux_room"):
            return f"{other}, my position on this is firm: yes, and the record shows it. Point {number}.{hostile}"
        return (
            f"{other}, you are wrong about the timing, and here is why: the data on point {number} "
            f"cuts against you.{hostile}"
        )

    def _memory_turn(self, name: str, reading: Reading, number: int) -> str:
        names, phase = reading.participants, reading.call.phase
        if phase == "opening":
            return f"I am {name}. Opening point {number}: my worldview decides this."
        if phase == "closing":
            return f"Closing for {name}, point {number}: I stand where I stood."
        # The evidence and its challenge come up in round 1 only: later rounds can know them
        # from the blackboard alone.
        first_round = reading.call.aspect == 0
        if name == names[0]:
            if first_round:
                return f"My evidence is {MEMORY_EVIDENCE}; it shows gold protects savers (point {number})."
            return f"Gold protects savers over decades, whatever the quarter says (point {number})."
        if name == names[1]:
            if first_round:
                return f"{names[0]}, {MEMORY_EVIDENCE} proves nothing after 1980 (point {number})."
            return f"{names[0]}, real rates decide this now, not history (point {number})."
        return f"I concede that {MEMORY_CONCESSIONS[number % len(MEMORY_CONCESSIONS)]} (point {number})."

    CIRCLING_YES = (
        "{other}, gold protects savers over decades; the short run is noise.",
        "Over decades gold protects savers, {other}, whatever a quarter says.",
        "{other}, the quarters are noise: savers are protected by gold over decades.",
    )
    CIRCLING_NO = (
        "{other}, real rates decide what gold does, not history.",
        "No, {other}. Real rates decide it, and history does not.",
        "{other}, history is not the point; real rates decide this.",
    )

    # The same two points as a capable model restates them, in new words every time.
    CIRCLING_IN_NEW_WORDS_YES = (
        "{other}, across generations bullion has kept savers whole; a bad quarter tells you nothing.",
        "Look at any long stretch, {other}: people who held gold kept their purchasing power, whatever the "
        "year-to-year noise.",
        "{other}, over a lifetime the metal preserves what savers earned, and short swings don't change that.",
        "Measured in decades rather than months, {other}, gold is what kept families' savings intact.",
        "{other}, the long arc is what matters: savers in gold came out whole, quarter-to-quarter wobbles aside.",
    )
    CIRCLING_IN_NEW_WORDS_NO = (
        "{other}, what moves gold is the real interest rate, not what happened in the past.",
        "It's the return on bonds after inflation that drives the metal, {other}; old charts don't.",
        "{other}, when inflation-adjusted yields rise, gold falls, and no amount of history changes that.",
        "Real yields set the price of holding bullion, {other}, so the historical record is beside the point.",
        "{other}, the cost of holding a metal that pays nothing is the real rate, and that decides it, not the "
        "archives.",
    )

    def _circling_turn(self, name: str, reading: Reading, number: int) -> str:
        names = reading.participants
        yes = names and name == names[0]
        if self.in_new_words:
            lines = self.CIRCLING_IN_NEW_WORDS_YES if yes else self.CIRCLING_IN_NEW_WORDS_NO
        else:
            lines = self.CIRCLING_YES if yes else self.CIRCLING_NO
        return lines[number % len(lines)].format(other=self._addressee(reading))

    # ── the Analyst/Critic mode ───────────────────────────────────────────────────────────────
    # Round 1: the Critic agrees with AC_POINTS[0] and contests AC_POINTS[1] (50 %); from round 2
    # it agrees with both (100 %, consensus).
    AC_POINTS = ["Index funds beat most active managers over ten years", "Fees compound into a large drag"]
    AC_SYNTHESIS = "Synthesis: buy broad index funds, keep fees low, and rebalance once a year."

    def _analyst_critic_turn(self, call: Call) -> str:
        number = str(call.round) if call.round is not None else "?"
        # Each round in words of its own: a turn repeating the transcript it was given is an echo.
        if call.role == "analyst":
            if number == "1":
                return f"1. {self.AC_POINTS[0]}. 2. {self.AC_POINTS[1]}."
            return (
                f"Refined in round {number}: the fee drag is shown by thirty years of cost data, so both points stand."
            )
        if call.role == "critic":
            if number == "1":
                return "The first point holds; the second needs support."
            return f"In round {number} the cost data settles it: I now accept both points."
        if call.phase == "analyst_critic_synthesis":
            return self.AC_SYNTHESIS
        return ""

    def _structured_AgreementAssessment(self, reading: Reading) -> dict:
        """By reference, as the assessor is asked: round 1 has no open point, so both are new
        points; later rounds accept every open point by the id the call is about (its tag's items)."""
        number = reading.call.round
        if number == 1 or not reading.call.items:
            return {
                "points": [],
                "new_points": [
                    {"text": self.AC_POINTS[0], "status": "accepted", "reason": "It holds."},
                    {"text": self.AC_POINTS[1], "status": "contested", "reason": "Not shown yet."},
                ],
                "overall": "moderate",
            }
        return {
            "points": [{"id": key, "status": "accepted", "reason": "It holds."} for key in reading.call.items],
            "new_points": [],
            "overall": "strong",
        }

    # ── structured calls ──────────────────────────────────────────────────────────────────────

    def _structured_DraftProposal(self, reading: Reading) -> dict:
        """The persona builder (personas/corpus/builder.py): a plausible contract, one quote copied
        from the excerpts it was shown (their item lines, ``[C1] (source) text``) and one it made
        up, as a real model might."""
        sentences = excerpt_sentences(reading)
        return {
            "tagline": "Counts the cost before the benefit.",
            "personality": "A sceptical essayist who writes about money, institutions and trust.",
            "bias": "Distrusts every central authority, even where it has worked.",
            "stakes": "A reputation built on calling the last crisis early.",
            "epistemology": "Trusts long price histories and ledgers over models and forecasts.",
            "time_horizon": "Decades; short-term moves are noise.",
            "flip_conditions": "A central bank keeping inflation low for a generation.",
            "evidence_policy": {
                "accepted_sources": ["Long price histories", "Ledgers and balance sheets"],
                "rejected_sources": ["Forecasts that fit on a slide"],
                "weighting": "Records outweigh models.",
            },
            "speech_patterns": ["You open with a date and a price.", "You end on a question."],
            "vocabulary": ["ledger", "debasement", "the long run"],
            "forbidden_phrases": ["Great question", "It depends"],
            "themes": ["inflation and the value of money", "trust in institutions"],
            "anchor_quotes": [MADE_UP_QUOTE, *sentences[:1]],
            "voice_moments": [
                {"situation": "Asked what savers should do.", "quote": sentences[1] if len(sentences) > 1 else ""},
                {"situation": "Told inflation is under control.", "quote": MADE_UP_QUOTE},
            ],
        }

    def _structured_AspectPlan(self, reading: Reading) -> dict:
        aspects = [
            {"label": "Evidence", "description": "What the record actually shows."},
            {"label": "Time horizon", "description": "Whether the short or the long run decides it."},
            {"label": "Policy", "description": "What central banks should do about it."},
        ]
        # Its topics are yes/no questions: the planner proposes none of its own, so the topic is
        # what the verdict is about (debates/question.py).
        return {"aspects": aspects if self.memory else aspects[:2], "question": None, "no_yes_no_question_fits": False}

    def position_update(self, reading: Reading, said: Said, before: list[Said]) -> dict:
        """One message's ledger update (a digest asks for one per message its tag names)."""
        speaker, text = said.name, said.text
        participants = reading.participants
        first = participants[0] if participants else ""
        first_id = reading.id_of(first)
        update = {"overall_stance": f"{speaker} holds their ground.", "evidence": [], "challenges_raised": []}
        if not self.memory:  # the first persona says yes to the topic, everyone else no
            update["topic_side"] = "YES" if speaker == first else "NO"
        if MEMORY_EVIDENCE in text and speaker == first:
            update["evidence"] = [MEMORY_EVIDENCE]
        elif MEMORY_EVIDENCE in text:
            update["challenges_raised"] = [{"to": first_id, "challenge": MEMORY_CHALLENGE}]
        if concession := CONCEDED.search(text):
            update["concession"] = concession.group(1)
        if wrong := WRONG.match(text):
            other = reading.id_of(wrong.group(1)) or wrong.group(1)
            update["new_disagreement"] = {"with": other, "on": "the timing", "intensity": "strong"}
        return update

    def _structured_LedgerDigest(self, reading: Reading) -> dict:
        return digest_answer(reading, self.position_update)

    def _structured_WindowDigest(self, reading: Reading) -> dict:
        self._count("DisagreementScan")  # the scan's windows are counted as its own calls were
        return digest_answer(reading, self.position_update, self._structured_DisagreementScan)

    def _structured_RoundRecordDraft(self, reading: Reading) -> dict:
        names = [reading.id_of(said.name) or said.name for said in reading.said]
        return {
            "takes": [
                {
                    "persona": n,
                    "position": "holds firm",
                    "key_argument": "the record",
                    "evidence_cited": [],
                    "engaged": "",
                }
                for n in dict.fromkeys(names)
            ],
            "summary": "They argued over what the record shows.",
            "new_disagreements": [],
            "shifts": [],
        }

    def _structured_RollingSummaryDraft(self, reading: Reading) -> dict:
        said = reading.said
        names = dict.fromkeys(line.name for line in said)
        first, last = (said[0].turn, said[-1].turn) if said else (0, 0)
        return {"summary": f"Messages {first} to {last}: {', '.join(names)} kept to their positions."}

    def _structured_ReflectionDraft(self, reading: Reading) -> dict:
        return {
            "reflections": [
                {
                    "content": "They talk past each other on time horizons.",
                    "type": "pattern",
                    "about": [],
                    "importance": 7,
                }
            ]
        }

    # One crux, as a detector words it for two pairs ("one_crux_two_wordings").
    ONE_CRUX_WORDINGS = (
        "Does the long run matter more than the next quarter?",
        "Should decades count for more than the coming quarter?",
    )

    def _structured_DisagreementScan(self, reading: Reading) -> dict:
        names = reading.participant_ids  # a pair is named by the persona ids of its lines
        if self.dispute == "none" or len(names) < 2:
            return {"disagreements": []}
        if self.dispute == "one_crux_two_wordings" and len(names) >= 3:
            return {
                "disagreements": [
                    {"persona_a": names[0], "persona_b": other, "dispute": wording, "known_id": None, "confidence": 0.9}
                    for other, wording in zip(names[1:3], self.ONE_CRUX_WORDINGS, strict=True)
                ]
            }
        if self.dispute == "quibbles":
            window = self.calls["DisagreementScan"]
            return {
                "disagreements": [
                    {
                        "persona_a": names[window % len(names)],
                        "persona_b": names[(window + 1) % len(names)],
                        "dispute": QUIBBLES[(window - 1) % len(QUIBBLES)],
                        "known_id": None,
                        "confidence": 0.9,
                    }
                ]
            }
        known = reading.call.items  # the disputes the scan is shown, by their numbers
        return {
            "disagreements": [
                {
                    "persona_a": names[0],
                    "persona_b": names[1],
                    "dispute": "Does the long run matter more than the next quarter?",
                    "known_id": int(known[0]) if known else None,
                    "confidence": 0.9,
                }
            ]
        }

    def _structured_CruxExitCheck(self, reading: Reading) -> dict:
        said = len(reading.said)
        surfaced = self.surface_after is not None and said >= self.surface_after
        return {"surfaced": surfaced, "crux": "They weigh time horizons differently." if surfaced else ""}

    def _structured_CruxCardDraft(self, reading: Reading) -> dict:
        a, b = (reading.participant_ids + ["", ""])[:2]  # the room's two, by their lines' ids
        hostile = HOSTILE if self.hostile else ""
        return {
            "question": f"Does the long run matter more than the next quarter?{hostile}",
            "positions": [
                {
                    "persona": a,
                    "position": "YES",
                    "reasoning": f"Decades decide it.{hostile}",
                    "falsifier": "Ten years of flat adoption",
                },
                {
                    "persona": b,
                    "position": "NO",
                    "reasoning": "Quarters compound into decades.",
                    "falsifier": "A full cycle without a drawdown",
                },
            ],
            "disagreement_type": "horizon",
            "diagnosis": f"They measure success on different clocks.{hostile}",
            "resolved": False,
            "resolution": "",
        }

    def _structured_EvidenceLedger(self, reading: Reading) -> dict:
        names = [said.name for said in reading.said]
        first = reading.id_of(names[1]) if len(names) > 1 else "someone"
        return {"entries": [{"persona": first, "evidence": "The data on point 3", "used_for": "the timing argument"}]}

    # ── graph mode ────────────────────────────────────────────────────────────────────────────

    GRAPH_DISPUTE = "Does the long run matter more than the next quarter?"
    GRAPH_SIDE_DISPUTE = "Is gold still the better hedge?"

    @staticmethod
    def _map_stances(reading: Reading) -> list[dict]:
        """The stances of the map shown to the crystallizer, from its item lines (a stance
        ``[S1] Holder: YES — claim`` under its dispute ``[D1] (type) question``):
        [{"id", "dispute", "question", "side", "holder"}]."""
        stances = []
        for item in reading.items.values():
            dispute = reading.items.get(item.parent) if item.parent else None
            if dispute is None or dispute.parent is not None:  # a stance is listed under a dispute
                continue
            stances.append(
                {
                    "id": item.id,
                    "dispute": dispute.id,
                    "question": dispute.text,
                    "side": item.held.split(" ", 1)[0],
                    "holder": item.holder,
                }
            )
        return stances

    def _structured_Crystallization(self, reading: Reading) -> dict:
        """A map that grows, shrinks and settles: round 1 opens a dispute (and proposes a one-sided
        one, which the map must reject); round 2 adds a stance, reasons, a second dispute (and a
        reason misattributed to a turn, rejected); round 3 concedes the second dispute and proposes
        the first as the crux; later rounds change nothing, so the map converges."""
        names = reading.participants
        last_turn = {said.name: said.turn for said in reading.said}
        new = [said.turn for said in reading.said if said.turn in reading.call.turns]  # the turns to map
        moves = [{"turn": turn, "move": "CHALLENGE" if index % 2 else "CLAIM"} for index, turn in enumerate(new)]
        output = {
            "moves": moves,
            "new_disputes": [],
            "new_stances": [],
            "new_reasons": [],
            "concessions": [],
            "reframes": [],
            "crux_proposals": [],
        }
        call = self.calls["Crystallization"]
        a, b, c = (names + ["", "", ""])[:3]
        hostile = HOSTILE if self.hostile else ""

        def who(name: str) -> str:  # a participant, named by the persona id of their line
            return reading.id_of(name) or name

        def assumption(text: str) -> list[dict]:
            return [{"assumption": text, "settling_question": f"What does a decade of data say about whether {text}?"}]

        if call == 1 and a in last_turn and b in last_turn:
            output["new_disputes"].append(
                {
                    "question": self.GRAPH_DISPUTE + hostile,
                    "disagreement_type": "horizon",
                    "stances": [
                        {
                            "persona": who(a),
                            "side": "YES",
                            "claim": f"Decades decide it.{hostile}",
                            "turn": last_turn[a],
                            "assumptions": [],
                        },
                        {
                            "persona": who(b),
                            "side": "NO",
                            "claim": "Quarters compound into decades.",
                            "turn": last_turn[b],
                            "assumptions": [],
                        },
                    ],
                }
            )
            if c in last_turn:  # a free-floating claim: nobody said NO
                output["new_disputes"].append(
                    {
                        "question": "Is gold a relic?",
                        "disagreement_type": "claim",
                        "stances": [
                            {
                                "persona": who(c),
                                "side": "YES",
                                "claim": "Gold is a relic.",
                                "turn": last_turn[c],
                                "assumptions": [],
                            }
                        ],
                    }
                )
        elif call == 2 and all(name in last_turn for name in (a, b, c)):
            first = {s["holder"]: s["id"] for s in self._map_stances(reading)}
            output["new_stances"].append(
                {
                    "dispute_id": "D1",
                    "persona": who(c),
                    "side": "NO",
                    "claim": "Next quarter pays the bills.",
                    "turn": last_turn[c],
                    "assumptions": [],
                }
            )
            output["new_reasons"] += [
                {
                    "stance_id": first.get(a, "S1"),
                    "persona": who(b),
                    "relation": "attacks",
                    "text": "Drawdowns wipe out savers first.",
                    "turn": last_turn[b],
                    "assumptions": assumption("short-run losses compound"),
                },
                {
                    "stance_id": first.get(a, "S1"),
                    "persona": who(a),
                    "relation": "supports",
                    "text": "Adoption compounds over decades.",
                    "turn": last_turn[a],
                    "assumptions": assumption("network effects dominate"),
                },
                {
                    "stance_id": first.get(b, "S2"),
                    "persona": who(a),
                    "relation": "attacks",
                    "text": "Misattributed to a turn.",
                    "turn": last_turn[b],
                    "assumptions": [],
                },
            ]
            output["new_disputes"].append(
                {
                    "question": self.GRAPH_SIDE_DISPUTE,
                    "disagreement_type": "evidence",
                    "stances": [
                        {
                            "persona": who(b),
                            "side": "YES",
                            "claim": "Gold held up in every crisis.",
                            "turn": last_turn[b],
                            "assumptions": [],
                        },
                        {
                            "persona": who(c),
                            "side": "NO",
                            "claim": "Gold lagged for decades.",
                            "turn": last_turn[c],
                            "assumptions": [],
                        },
                    ],
                }
            )
        elif call == 3 and b in last_turn:
            stances = self._map_stances(reading)
            side = next((s for s in stances if s["holder"] == b and self.GRAPH_SIDE_DISPUTE in s["question"]), None)
            if side:
                output["concessions"].append(
                    {"persona": who(b), "target_id": side["id"], "what": "gold lagged", "turn": last_turn[b]}
                )
            if a in last_turn:
                output["crux_proposals"].append({"dispute_id": "D1", "persona": who(a), "turn": last_turn[a]})
        return output


def excerpt_sentences(reading: Reading) -> list[str]:
    """The sentences of the corpus excerpts a persona builder's call is shown, in order: the text
    of each item line ``[C1] (source) text`` after its source."""
    excerpts = [
        item.text.split(") ", 1)[-1] for key, item in reading.items.items() if key[:1] == "C" and key[1:].isdigit()
    ]
    return [sentence for text in excerpts for sentence in SENTENCE.findall(text)]
