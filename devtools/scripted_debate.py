"""A scripted debate for the fake Messages API: answers every kind of call the orchestrator makes
(aspect plan, persona turns, disagreement scans, exit checks, crux cards, evidence ledger) with
plausible, deterministic output, so the real SDK, orchestrator and pages can run end to end.

What a call is comes from the call itself, never from its prompt's wording: a structured call by its
schema's title, a spoken one by the gateway's role and phase (the request's X-Faultline-Call
header). What it says is then read from the prompt as a model would read it (who speaks, to whom,
which round).

    script = DebateScript(dispute="persistent", latency=0.05)
    with FakeMessagesAPI(responder=script.respond) as api: ...
"""

from __future__ import annotations

import itertools
import re
import threading
from dataclasses import dataclass, field

from devtools.digest_reading import digest_answer
from devtools.fake_messages_api import Call, Reply, system_text, user_text

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


@dataclass
class DebateScript:
    # "persistent": the first two personas clash on one question in every window (one room opens);
    # "quibbles": a different one-off disagreement each window (no room should open); "none".
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
        output = (body.get("output_config") or {}).get("format")
        if output:
            title = output.get("schema", {}).get("title", "")
            self._count(title)
            handler = getattr(self, f"_structured_{title}", None)
            latency = self.latency if self.extraction_latency is None else self.extraction_latency
            return Reply.json(handler(body) if handler else {}, latency=latency)
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
            self._persona_turn(body, call),
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

    # ── persona turns ─────────────────────────────────────────────────────────────────────────

    @staticmethod
    def offers_own_writing(body: dict) -> bool:
        """Whether the turn's context offers a passage of the persona's own writing to cite: a line
        ``[C1] (source) text``, the tag a citation names (orchestration/citing.py)."""
        return re.search(r"^\[C1\] \(", user_text(body), flags=re.M) is not None

    def _persona_turn(self, body: dict, call: Call) -> str:
        text = self._persona_turn_text(body, call)
        if self.cite_own_writing and self.offers_own_writing(body):
            return f"{text} As I have written before [C1]."
        return text

    def _persona_turn_text(self, body: dict, call: Call) -> str:
        system, user = system_text(body), user_text(body)
        if role_turn := self._analyst_critic_turn(call, user):
            return role_turn
        # Its name, as the persona reads it in its contract.
        name = re.search(r"You are (.+?), taking part", system).group(1)
        number = next(self._counter)
        if self.memory:
            return self._memory_turn(name, user, number, call.phase)
        if self.circling and call.phase.startswith("dialogue"):
            return self._circling_turn(name, user, number)
        addressee = re.search(r"(?:Reply to|Answer what|side room with) (.+?)(?:'s| just| to get)", user)
        other = addressee.group(1) if addressee else "everyone"
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

    def _memory_turn(self, name: str, user: str, number: int, phase: str) -> str:
        names = [n.replace(" (you)", "").strip() for n in self._participants_in(user)]
        if phase == "opening":
            return f"I am {name}. Opening point {number}: my worldview decides this."
        if phase == "closing":
            return f"Closing for {name}, point {number}: I stand where I stood."
        # The evidence and its challenge come up in round 1 only: later rounds can know them
        # from the blackboard alone.
        first_round = "Current aspect (1 of" in user
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

    def _circling_turn(self, name: str, user: str, number: int) -> str:
        names = [n.replace(" (you)", "").strip() for n in self._participants_in(user)]
        addressee = re.search(r"(?:Reply to|Answer what) (.+?)(?:'s| just)", user)
        other = addressee.group(1) if addressee else "everyone"
        lines = self.CIRCLING_YES if names and name == names[0] else self.CIRCLING_NO
        return lines[number % len(lines)].format(other=other)

    @staticmethod
    def _participants_in(text: str) -> list[str]:
        match = re.search(r"Participants: (.+)", text)
        return [name.strip() for name in match.group(1).split(",")] if match else []

    # ── the Analyst/Critic mode ───────────────────────────────────────────────────────────────
    # Round 1: the Critic agrees with AC_POINTS[0] and contests AC_POINTS[1] (50 %); from round 2
    # it agrees with both (100 %, consensus).
    AC_POINTS = ["Index funds beat most active managers over ten years", "Fees compound into a large drag"]
    AC_SYNTHESIS = "Synthesis: buy broad index funds, keep fees low, and rebalance once a year."

    def _analyst_critic_turn(self, call: Call, user: str) -> str:
        number = re.search(r"Round (\d+)\.", user)
        number = number.group(1) if number else "?"
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

    def _structured_AgreementAssessment(self, body: dict) -> dict:
        number = int(re.search(r"The Analyst's answer \(round (\d+)\)", user_text(body)).group(1))
        agreed, disagreed = (self.AC_POINTS[:1], self.AC_POINTS[1:]) if number == 1 else (self.AC_POINTS, [])
        return {
            "agreed": [{"point": point, "reasoning": "It holds."} for point in agreed],
            "disagreed": [{"point": point, "counter_argument": "Not shown yet."} for point in disagreed],
            "unverifiable": [],
            "overall": "moderate" if disagreed else "strong",
        }

    # ── structured calls ──────────────────────────────────────────────────────────────────────

    def _structured_DraftProposal(self, body: dict) -> dict:
        """The persona builder (personas/corpus/builder.py): a plausible contract, one quote copied
        from the excerpts it was shown and one it made up, as a real model might."""
        excerpts = user_text(body).split("Excerpts of their writing:", 1)[-1]
        sentences = re.findall(r"[A-Z][^.!?\n]{30,200}[.!?]", excerpts)
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

    def _structured_AspectPlan(self, body: dict) -> dict:
        aspects = [
            {"label": "Evidence", "description": "What the record actually shows."},
            {"label": "Time horizon", "description": "Whether the short or the long run decides it."},
            {"label": "Policy", "description": "What central banks should do about it."},
        ]
        return {"aspects": aspects if self.memory else aspects[:2]}

    def _structured_PositionUpdate(self, body: dict) -> dict:
        user = body["messages"][0]["content"]  # a repair request appends turns after it
        said = re.search(r'\n([^\n]+?) just said:\n"(.*)"\s*$', user, flags=re.S)
        speaker, text = said.group(1), said.group(2)
        first = self._participants_in(user)[0]
        update = {"overall_stance": f"{speaker} holds their ground.", "evidence": [], "challenges_raised": []}
        if not self.memory:  # the first persona says yes to the topic, everyone else no
            update["topic_side"] = "YES" if speaker == first else "NO"
        if MEMORY_EVIDENCE in text and speaker == first:
            update["evidence"] = [MEMORY_EVIDENCE]
        elif MEMORY_EVIDENCE in text:
            update["challenges_raised"] = [{"to": first, "challenge": MEMORY_CHALLENGE}]
        if concession := re.search(r"I concede that (.+?) \(point", text):
            update["concession"] = concession.group(1)
        if wrong := re.match(r"(.+?), you are wrong about the timing", text):
            update["new_disagreement"] = {"with": wrong.group(1), "on": "the timing", "intensity": "strong"}
        return update

    def _structured_LedgerDigest(self, body: dict) -> dict:
        return digest_answer(body, self._structured_PositionUpdate)

    def _structured_WindowDigest(self, body: dict) -> dict:
        self._count("DisagreementScan")  # the scan's windows are counted as its own calls were
        return digest_answer(body, self._structured_PositionUpdate, self._structured_DisagreementScan)

    def _structured_RoundRecordDraft(self, body: dict) -> dict:
        names = re.findall(r"^([^\n:]+): ", user_text(body).split("\n\n", 1)[-1], flags=re.M)
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

    def _structured_RollingSummaryDraft(self, body: dict) -> dict:
        span = re.search(r"^Messages (\d+)-(\d+):", user_text(body), flags=re.M)
        names = dict.fromkeys(re.findall(r"^([^\n:]+): ", user_text(body).split(span.group(0), 1)[-1], re.M))
        return {"summary": f"Messages {span.group(1)} to {span.group(2)}: {', '.join(names)} kept to their positions."}

    def _structured_ReflectionDraft(self, body: dict) -> dict:
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

    def _participants(self, body: dict) -> list[str]:
        return self._participants_in(user_text(body))

    def _structured_DisagreementScan(self, body: dict) -> dict:
        names = self._participants(body)
        if self.dispute == "none" or len(names) < 2:
            return {"disagreements": []}
        user = user_text(body)
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
        known = re.search(r"\[(\d+)\] ", user)
        return {
            "disagreements": [
                {
                    "persona_a": names[0],
                    "persona_b": names[1],
                    "dispute": "Does the long run matter more than the next quarter?",
                    "known_id": int(known.group(1)) if known else None,
                    "confidence": 0.9,
                }
            ]
        }

    def _structured_CruxExitCheck(self, body: dict) -> dict:
        said = len(re.findall(r"^[^\n:]+: ", user_text(body).split("\n\n", 1)[-1], flags=re.M))
        surfaced = self.surface_after is not None and said >= self.surface_after
        return {"surfaced": surfaced, "crux": "They weigh time horizons differently." if surfaced else ""}

    def _structured_CruxCardDraft(self, body: dict) -> dict:
        people = re.search(r"People: (.+?), (.+)", user_text(body))
        a, b = people.group(1).strip(), people.group(2).strip()
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

    def _structured_EvidenceLedger(self, body: dict) -> dict:
        names = re.findall(r"^([^\n:]+): ", user_text(body), flags=re.M)
        first = names[1] if len(names) > 1 else "Someone"
        return {"entries": [{"persona": first, "evidence": "The data on point 3", "used_for": "the timing argument"}]}

    # ── graph mode ────────────────────────────────────────────────────────────────────────────

    GRAPH_DISPUTE = "Does the long run matter more than the next quarter?"
    GRAPH_SIDE_DISPUTE = "Is gold still the better hedge?"

    @staticmethod
    def _map_stances(user: str) -> list[dict]:
        """The stances of the map shown to the crystallizer: [{"id", "dispute", "question", "side", "holder"}]."""
        stances, dispute, question = [], "", ""
        for line in user.split("THE MAP NOW", 1)[-1].split("\n\n", 1)[0].splitlines():
            if header := re.match(r"(D\d+) \[\w+\] (.+)", line):
                dispute, question = header.groups()
            elif stance := re.match(r"\s+(S\d+) (YES|NO) — (.+?): ", line):
                stances.append(
                    {
                        "id": stance.group(1),
                        "dispute": dispute,
                        "question": question,
                        "side": stance.group(2),
                        "holder": stance.group(3),
                    }
                )
        return stances

    def _structured_Crystallization(self, body: dict) -> dict:
        """A map that grows, shrinks and settles: round 1 opens a dispute (and proposes a one-sided
        one, which the map must reject); round 2 adds a stance, reasons, a second dispute (and a
        reason misattributed to a turn, rejected); round 3 concedes the second dispute and proposes
        the first as the crux; later rounds change nothing, so the map converges."""
        user = user_text(body)
        names = self._participants_in(user)
        spoken = re.findall(r"^\[turn (\d+)\] ([^:\n]+): ", user, flags=re.M)
        new = re.findall(r"^\[turn (\d+)\] ([^:\n]+): ", user.split("NEW TURNS", 1)[-1], flags=re.M)
        last_turn = {name: int(turn) for turn, name in spoken}
        moves = [
            {"turn": int(turn), "move": "CHALLENGE" if index % 2 else "CLAIM"} for index, (turn, _) in enumerate(new)
        ]
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

        def assumption(text: str) -> list[dict]:
            return [{"assumption": text, "settling_question": f"What does a decade of data say about whether {text}?"}]

        if call == 1 and a in last_turn and b in last_turn:
            output["new_disputes"].append(
                {
                    "question": self.GRAPH_DISPUTE + hostile,
                    "disagreement_type": "horizon",
                    "stances": [
                        {
                            "persona": a,
                            "side": "YES",
                            "claim": f"Decades decide it.{hostile}",
                            "turn": last_turn[a],
                            "assumptions": [],
                        },
                        {
                            "persona": b,
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
                                "persona": c,
                                "side": "YES",
                                "claim": "Gold is a relic.",
                                "turn": last_turn[c],
                                "assumptions": [],
                            }
                        ],
                    }
                )
        elif call == 2 and all(name in last_turn for name in (a, b, c)):
            first = {s["holder"]: s["id"] for s in self._map_stances(user)}
            output["new_stances"].append(
                {
                    "dispute_id": "D1",
                    "persona": c,
                    "side": "NO",
                    "claim": "Next quarter pays the bills.",
                    "turn": last_turn[c],
                    "assumptions": [],
                }
            )
            output["new_reasons"] += [
                {
                    "stance_id": first.get(a, "S1"),
                    "persona": b,
                    "relation": "attacks",
                    "text": "Drawdowns wipe out savers first.",
                    "turn": last_turn[b],
                    "assumptions": assumption("short-run losses compound"),
                },
                {
                    "stance_id": first.get(a, "S1"),
                    "persona": a,
                    "relation": "supports",
                    "text": "Adoption compounds over decades.",
                    "turn": last_turn[a],
                    "assumptions": assumption("network effects dominate"),
                },
                {
                    "stance_id": first.get(b, "S2"),
                    "persona": a,
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
                            "persona": b,
                            "side": "YES",
                            "claim": "Gold held up in every crisis.",
                            "turn": last_turn[b],
                            "assumptions": [],
                        },
                        {
                            "persona": c,
                            "side": "NO",
                            "claim": "Gold lagged for decades.",
                            "turn": last_turn[c],
                            "assumptions": [],
                        },
                    ],
                }
            )
        elif call == 3 and b in last_turn:
            stances = self._map_stances(user)
            side = next((s for s in stances if s["holder"] == b and s["question"] == self.GRAPH_SIDE_DISPUTE), None)
            if side:
                output["concessions"].append(
                    {"persona": b, "target_id": side["id"], "what": "gold lagged", "turn": last_turn[b]}
                )
            if a in last_turn:
                output["crux_proposals"].append({"dispute_id": "D1", "persona": a, "turn": last_turn[a]})
        return output
