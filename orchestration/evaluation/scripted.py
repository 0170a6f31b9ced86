"""The scripted model of the evaluation harness: a stand-in for Claude behind the fake Messages API
(devtools/fake_messages_api.py), so the real SDK and the real orchestrator are exercised.

What a call is comes from the call (a structured call's schema title; a turn's phase, whom it
answers, its room and round, from the gateway's X-Faultline-Call tag: ids only), never from the
prompt's wording. What was said comes from the prompt's data lines only (devtools/prompt_reading.py:
transcript lines ``[turn N] Name: text``, item lines ``[ID] text``); a structured answer names a
participant by the persona id of their item line, as the app asks.

Each persona speaks from its own contract: the scenario's spec of the persona the call's tag names
(its ``cast``, keyed by persona id: what the harness wrote into the contract, so a real model
reads the same brief), and changes its mind only when the evidence in its contract shows up in
what was said to it. Every extraction reads only what the prompt shows it (the transcript lines,
the known disputes' and the room's question's item lines): the detector reports the pairs whose
latest words contradict each other, the card writer the sides each took in the room. What a run
finds is therefore what the pipeline made of what was said.

Its regular expressions, besides prompt_reading's two (the data lines), read only what its own
personas said, in a transcript line's text: ``_VIEW_SPOKEN``, ``_ANSWER_SPOKEN``,
``_MEANING_SPOKEN``, ``_EVIDENCE_SPOKEN``, ``_ADDRESSED``, ``_CONCEDED`` (and ``_WORD`` splits a
question into words, to match two questions).

Noise comes from the scenario's seed, drawn from the content of each call (never from call order,
which threads make unpredictable): the detector's confidence, the findings it misses, its wording,
a turn's first draft slipping into a forbidden phrase or echoing its prompt.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading

from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading, Said, digest_answer
from orchestration.evaluation.scenarios import NO, NUANCED, YES, PersonaSpec, Scenario

# NUANCED said as "partly": "it depends" is one of the house's forbidden phrases (personas/house.py),
# which the voice guard would take out of what these personas say.
SAID = {YES: "yes", NO: "no", NUANCED: "partly"}
HEARD = {value: key for key, value in SAID.items()}
OPPOSITE = {YES: NO, NO: YES, NUANCED: NUANCED}

_VIEW_SPOKEN = re.compile(r'on "([^"]+)" I say (yes|no|partly)', re.IGNORECASE)
_ANSWER_SPOKEN = re.compile(r"My answer to the debate question is (yes|no|partly)", re.IGNORECASE)
_MEANING_SPOKEN = re.compile(r'by "([^"]+)" I mean ([^.,;]+)', re.IGNORECASE)
_EVIDENCE_SPOKEN = re.compile(r"Look at (.+?)\.")
_ADDRESSED = re.compile(r"([^,\n]+), on \"")
_CONCEDED = re.compile(r"I concede, (.+?) changes my mind")
_WORD = re.compile(r"[a-z0-9]+")
REWORDINGS = ["{q}", "Whether {q_lower}", "{q} (disputed)"]


def _spoken_question(question: str) -> str:
    # No "?" in speech: a question mark followed by a space ends a sentence for the voice guard.
    return question.rstrip("?")


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if len(w) > 2}


def _closest(question: str, candidates: list[str]) -> str | None:
    scored = [(len(_words(question) & _words(c)), c) for c in candidates]
    best = max(scored, default=(0, None))
    return best[1] if best[0] else None


class ScriptedModel:
    """``cast``: the scenario's spec of each persona, by persona id (the harness made the personas
    from them: scenario_run)."""

    def __init__(self, scenario: Scenario, cast: dict[str, PersonaSpec] | None = None) -> None:
        self.scenario = scenario
        self.cast = dict(cast or {})
        self.calls: dict[str, int] = {}
        self._turns: dict[tuple[str, str], int] = {}  # (persona name, room question or "") -> turns spoken
        self._flipped: set[str] = set()
        self._lock = threading.Lock()

    def _rng(self, *key) -> random.Random:
        digest = hashlib.sha256(repr((self.scenario.seed, *key)).encode()).hexdigest()
        return random.Random(int(digest[:16], 16))

    def respond(self, body: dict, call: Call) -> Reply:
        reading = Reading(body, call)
        kind = reading.title or "persona"
        with self._lock:
            self.calls[kind] = self.calls.get(kind, 0) + 1
        if reading.title:
            handler = getattr(self, f"_structured_{kind}", None)
            return Reply.json(handler(reading) if handler else {})
        return Reply.says(self._persona_turn(reading), chunk_size=24)

    # ── persona turns ─────────────────────────────────────────────────────────────────────────

    @staticmethod
    def _room_question(reading: Reading) -> str | None:
        """A crux room's question: the item line of the dispute its tag names."""
        if not reading.call.phase.startswith("crux_room") or not reading.call.items:
            return None
        item = reading.items.get(reading.call.items[0])
        return item.text if item else None

    def _persona_turn(self, reading: Reading) -> str:
        call = reading.call
        spec = self.cast[call.persona]
        name = spec.name
        views = {view.question: (view.side, view.reason) for view in spec.views}
        topic_side = spec.topic_side
        redraft = call.attempt > 1  # the same turn, asked again
        room = self._room_question(reading)
        # Turns are counted per conversation: a persona's crux-room turns run on other threads,
        # beside the main channel, so one count for both would depend on how the threads interleave.
        channel = (name, room or "")
        with self._lock:
            self._turns[channel] = number = self._turns.get(channel, 0) + (0 if redraft else 1)
        if spec.flip:
            question, evidence, after = spec.flip
            if any(evidence in said.text for said in reading.said):  # someone cited it to them
                with self._lock:
                    self._flipped.add(name)
            if name in self._flipped:
                views[question] = (OPPOSITE[views[question][0]], f"I concede, {evidence} changes my mind")
                topic_side = after
        addressee = self.cast[call.addressee].name if call.addressee in self.cast else ""
        to = f"{addressee}, " if addressee else ""
        answer = f"My answer to the debate question is {SAID[topic_side]}."
        if call.phase == "opening":
            return f"I am {name}. {answer}"
        if call.phase == "closing":
            return f"Closing for {name}: I said what I believe. {answer}"

        if room:
            question = _closest(room, list(views)) or next(iter(views))
        elif spec.circling:
            question = next(iter(views))
        else:
            question = list(views)[(number - 1) % len(views)]
            # Answer what the addressee last said, when it is a point of disagreement.
            if addressee:
                theirs = self._latest_views(reading.said)
                for asked, sides in theirs.items():
                    said_side = sides.get(addressee)
                    if asked in views and said_side and said_side != views[asked][0]:
                        question = asked
        side, reason = views[question]
        said = f'{to}on "{_spoken_question(question)}" I say {SAID[side]}: {reason}'
        if spec.meaning:
            said += f', and by "{spec.meaning[0]}" I mean {spec.meaning[1]}'
        said += "."
        if spec.holds and (room or number >= spec.holds[1]):
            said += f" Look at {spec.holds[0]}."
        text = f"{said} {answer}"

        # A weak draft: a forbidden phrase (the voice guard asks again) or a line of the prompt
        # echoed back (its own participant line, as a small model recites its context).
        slip = self._rng("slip", *channel, number).random() < self.scenario.slip_rate
        if slip and not redraft:
            if spec.forbidden and number % 2:
                return f"{spec.forbidden[0]}, {text}"
            if mine := reading.items.get(call.persona):
                return f"[{mine.id}] {mine.text}\n{text}"
        return text

    # ── structured calls ──────────────────────────────────────────────────────────────────────

    def _structured_AspectPlan(self, reading: Reading) -> dict:
        # Its scenarios' topics are yes/no questions: the planner proposes none of its own, so the
        # topic is what the verdict is about (debates/question.py).
        return {
            "aspects": [
                {"label": "Evidence", "description": "What the record shows."},
                {"label": "Consequences", "description": "What follows for policy."},
            ],
            "question": None,
            "no_yes_no_question_fits": False,
        }

    @staticmethod
    def _answered_before(reading: Reading, said: Said) -> str:
        """The side ``said``'s speaker last gave, in the lines the prompt shows before it."""
        side = ""
        for line in reading.said:
            if line is said or line.turn == said.turn:
                break
            if line.name == said.name and (answer := _ANSWER_SPOKEN.search(line.text)):
                side = HEARD[answer.group(1).lower()]
        return side

    def position_update(self, reading: Reading, said: Said, before: list[Said]) -> dict:
        """One message's ledger update, from what it says and the messages shown before it."""
        speaker, text = said.name, said.text
        update: dict = {"evidence": [], "challenges_raised": []}
        if answer := _ANSWER_SPOKEN.search(text):
            side = HEARD[answer.group(1).lower()]
            update["topic_side"] = side
            update["overall_stance"] = f"{speaker} answers {SAID[side]}."
            earlier = self._answered_before(reading, said)
            if earlier and earlier != side:
                update["shift"] = f"now answers {SAID[side]}"
        if evidence := _EVIDENCE_SPOKEN.search(text):
            update["evidence"] = [evidence.group(1)]
        # Agreeing or disagreeing with the one addressed, on the point both spoke to.
        addressed = _ADDRESSED.match(text)
        if addressed and (view := _VIEW_SPOKEN.search(text)):
            question, side = view.group(1) + "?", HEARD[view.group(2).lower()]
            theirs = self._latest_views(before).get(question, {}).get(addressed.group(1))
            other = reading.id_of(addressed.group(1)) or addressed.group(1)
            if theirs and theirs != side:
                update["new_disagreement"] = {"with": other, "on": question, "intensity": "strong"}
            elif theirs:
                update["new_agreement"] = {"with": other, "on": question}
        if concession := _CONCEDED.search(text):
            update["concession"] = f"{concession.group(1)} changes the picture"
        return update

    def _structured_LedgerDigest(self, reading: Reading) -> dict:
        return digest_answer(reading, self.position_update)

    def _structured_WindowDigest(self, reading: Reading) -> dict:
        return digest_answer(reading, self.position_update, self._structured_DisagreementScan)

    def _structured_RoundRecordDraft(self, reading: Reading) -> dict:
        names = [reading.id_of(said.name) or said.name for said in reading.said]
        takes = [
            {"persona": n, "position": "as stated", "key_argument": "their view", "evidence_cited": [], "engaged": ""}
            for n in dict.fromkeys(names)
        ]
        return {"takes": takes[:6], "summary": "Each restated their view.", "new_disagreements": [], "shifts": []}

    def _structured_RollingSummaryDraft(self, reading: Reading) -> dict:
        # Neutral on purpose: the scripted summary claims nothing the scenario did not say.
        return {"summary": "The participants argued their positions on the question."}

    def _structured_ReflectionDraft(self, reading: Reading) -> dict:
        return {"reflections": [{"content": "Positions are stable.", "type": "pattern", "about": [], "importance": 5}]}

    @staticmethod
    def _latest_views(said: list[Said]) -> dict[str, dict[str, str]]:
        """question -> {speaker: the side they last took on it}, from transcript lines."""
        latest: dict[str, dict[str, str]] = {}
        for line in said:
            for question, side in _VIEW_SPOKEN.findall(line.text):
                latest.setdefault(question + "?", {})[line.name] = HEARD[side.lower()]
        return latest

    def _structured_DisagreementScan(self, reading: Reading) -> dict:
        transcript = "\n".join(f"{said.name}: {said.text}" for said in reading.said)
        # The disputes it knows: their item lines, by the numbers the tag names ("A vs B: question").
        known = [(key, reading.items[key].text) for key in reading.call.items if key in reading.items]
        window = hashlib.sha256(transcript.encode()).hexdigest()[:8]
        found = []
        for question, sides in self._latest_views(reading.said).items():
            names = sorted(sides)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    if {sides[a], sides[b]} != {YES, NO}:
                        continue
                    rng = self._rng("scan", window, question, a, b)
                    if rng.random() < self.scenario.miss_rate:
                        continue
                    wording = rng.choice(REWORDINGS).format(q=question, q_lower=question[0].lower() + question[1:])
                    known_id = next(
                        (
                            int(key)
                            for key, dispute in known
                            if a in dispute and b in dispute and _closest(dispute, [question]) and rng.random() < 0.5
                        ),
                        None,
                    )
                    low, high = self.scenario.confidence
                    found.append(
                        {
                            "persona_a": reading.id_of(a) or a,
                            "persona_b": reading.id_of(b) or b,
                            "dispute": wording,
                            "known_id": known_id,
                            "confidence": round(rng.uniform(low, high), 2),
                        }
                    )
        return {"disagreements": found[:4]}

    def _structured_CruxExitCheck(self, reading: Reading) -> dict:
        said = len(reading.said)
        return {"surfaced": said >= 4, "crux": "They answer the question differently." if said >= 4 else ""}

    def _structured_CruxCardDraft(self, reading: Reading) -> dict:
        a, b = (reading.participants + ["", ""])[:2]  # the room's two
        question = reading.items[reading.call.items[0]].text  # the room's dispute
        conversation = "\n".join(said.text for said in reading.said)
        sides: dict[str, str] = {}
        for view in self._latest_views(reading.said).values():
            sides.update(view)
        meanings = {m.group(2).strip() for m in _MEANING_SPOKEN.finditer(conversation)}
        evidence = _EVIDENCE_SPOKEN.search(conversation)
        kind = "definition" if len(meanings) > 1 else "evidence" if evidence else "claim"
        resolved = sides.get(a) is not None and sides.get(a) == sides.get(b)
        return {
            "question": question,
            "positions": [
                {
                    "persona": reading.id_of(name) or name,
                    "position": sides.get(name, NUANCED),
                    "reasoning": f"{name} answers {SAID[sides.get(name, NUANCED)]}.",
                    "falsifier": "Data they have not seen.",
                }
                for name in (a, b)
            ],
            "disagreement_type": kind,
            "diagnosis": "They mean different things by the same word."
            if kind == "definition"
            else "They read the record differently.",
            "resolved": resolved,
            "resolution": f"Settled by {evidence.group(1)}." if resolved and evidence else "",
        }

    def _structured_EvidenceLedger(self, reading: Reading) -> dict:
        entries = []
        for said in reading.said:
            evidence = _EVIDENCE_SPOKEN.search(said.text)
            if evidence and all(e["evidence"] != evidence.group(1) for e in entries):
                who = reading.id_of(said.name) or said.name
                entries.append({"persona": who, "evidence": evidence.group(1), "used_for": "their view"})
        return {"entries": entries[:10]}

    def _structured_CardJudgement(self, reading: Reading) -> dict:
        return {"real_crux": 4, "falsifiers_fit": 3, "note": "scripted"}
