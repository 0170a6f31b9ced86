"""The scripted model of the evaluation harness: a stand-in for Claude behind the fake Messages API
(devtools/fake_messages_api.py), so the real SDK and the real orchestrator are exercised.

What a call is comes from the call (a structured call's schema title; a turn's phase, from the
gateway's X-Faultline-Call header), never from the prompt's wording.

It knows nothing of the scenario it plays. Each persona speaks from its own contract, read from the
system prompt like a real model would ("On "..." you say YES: ..."), and changes its mind only when
the evidence in its contract shows up in its context. Every extraction reads only what the prompt
shows it (the transcript, the ledger state, the room's conversation): the detector reports the pairs
whose latest words contradict each other, the card writer the sides each took in the room. What a
run finds is therefore what the pipeline made of what was said.

Noise comes from the scenario's seed, drawn from the content of each call (never from call order,
which threads make unpredictable): the detector's confidence, the findings it misses, its wording,
a turn's first draft slipping into a forbidden phrase or echoing its prompt.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading

from devtools.digest_reading import digest_answer
from devtools.fake_messages_api import Call, Reply, user_text
from orchestration.evaluation.scenarios import NO, NUANCED, YES, Scenario

SAID = {YES: "yes", NO: "no", NUANCED: "it depends"}
HEARD = {value: key for key, value in SAID.items()}
OPPOSITE = {YES: NO, NO: YES, NUANCED: NUANCED}

_VIEW = re.compile(r'- On "([^"]+)" you say (YES|NO|NUANCED): ([^\n]+?)\.\n')
_VIEW_SPOKEN = re.compile(r'on "([^"]+)" I say (yes|no|it depends)', re.IGNORECASE)
_ANSWER_SPOKEN = re.compile(r"My answer to the debate question is (yes|no|it depends)", re.IGNORECASE)
_MEANING_SPOKEN = re.compile(r'by "([^"]+)" I mean ([^.,;]+)', re.IGNORECASE)
_EVIDENCE_SPOKEN = re.compile(r"Look at (.+?)\.")
REWORDINGS = ["{q}", "Whether {q_lower}", "{q} (disputed)"]


def _spoken_question(question: str) -> str:
    # No "?" in speech: a question mark followed by a space ends a sentence for the voice guard.
    return question.rstrip("?")


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def _closest(question: str, candidates: list[str]) -> str | None:
    scored = [(len(_words(question) & _words(c)), c) for c in candidates]
    best = max(scored, default=(0, None))
    return best[1] if best[0] else None


class ScriptedModel:
    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.calls: dict[str, int] = {}
        self._turns: dict[tuple[str, str], int] = {}  # (persona name, room question or "") -> turns spoken
        self._flipped: set[str] = set()
        self._lock = threading.Lock()

    def _rng(self, *key) -> random.Random:
        digest = hashlib.sha256(repr((self.scenario.seed, *key)).encode()).hexdigest()
        return random.Random(int(digest[:16], 16))

    def respond(self, body: dict, call: Call) -> Reply:
        output = (body.get("output_config") or {}).get("format")
        kind = output.get("schema", {}).get("title", "") if output else "persona"
        with self._lock:
            self.calls[kind] = self.calls.get(kind, 0) + 1
        if output:
            handler = getattr(self, f"_structured_{kind}", None)
            return Reply.json(handler(body) if handler else {})
        return Reply.says(self._persona_turn(body, call.phase), chunk_size=24)

    # ── persona turns ─────────────────────────────────────────────────────────────────────────

    @staticmethod
    def _user(body: dict) -> str:
        return user_text(body)

    @staticmethod
    def _system(body: dict) -> str:
        system = body.get("system") or ""
        return system if isinstance(system, str) else "\n".join(block["text"] for block in system)

    def _persona_turn(self, body: dict, phase: str) -> str:
        system, user = self._system(body), self._user(body)
        name = re.search(r"You are (.+?), taking part", system).group(1)
        views = {q: (side, reason) for q, side, reason in _VIEW.findall(system + "\n")}
        topic_side = re.search(r"Your answer to the debate question: (\w+)", system).group(1)
        redraft = "used a phrase you never use" in system  # the same turn, asked again
        room = re.search(r'get to the bottom of: "([^"]+)"', user) if phase.startswith("crux_room") else None
        # Turns are counted per conversation: a persona's crux-room turns run on other threads,
        # beside the main channel, so one count for both would depend on how the threads interleave.
        channel = (name, room.group(1) if room else "")
        with self._lock:
            self._turns[channel] = number = self._turns.get(channel, 0) + (0 if redraft else 1)
        if flip := re.search(
            r'change your mind on "([^"]+)" if someone cited (.+?); then your answer to the debate question would be (\w+)',
            system,
        ):
            question, evidence, after = flip.groups()
            if evidence in user:
                with self._lock:
                    self._flipped.add(name)
            if name in self._flipped:
                views[question] = (OPPOSITE[views[question][0]], f"I concede, {evidence} changes my mind")
                topic_side = after
        addressee = re.search(r"(?:Reply to|Answer what|side room with|Dismiss) (.+?)(?:'s| just| to get)", user)
        to = f"{addressee.group(1)}, " if addressee else ""
        answer = f"My answer to the debate question is {SAID[topic_side]}."
        if phase == "opening":
            return f"I am {name}. {answer}"
        if phase == "closing":
            return f"Closing for {name}: I said what I believe. {answer}"

        if room:
            question = _closest(room.group(1), list(views)) or next(iter(views))
        elif "keep coming back to one point" in system:
            question = next(iter(views))
        else:
            question = list(views)[(number - 1) % len(views)]
            # Answer what the addressee last said, when it is a point of disagreement.
            if addressee:
                theirs = self._latest_views("\n".join(re.findall(r"^.+: .+$", user, flags=re.M)))
                for asked, sides in theirs.items():
                    said_side = sides.get(addressee.group(1))
                    if asked in views and said_side and said_side != views[asked][0]:
                        question = asked
        side, reason = views[question]
        meaning = re.search(r'By "([^"]+)" you mean ([^.\n]+)\.', system)
        said = f'{to}on "{_spoken_question(question)}" I say {SAID[side]}: {reason}'
        if meaning:
            said += f', and by "{meaning.group(1)}" I mean {meaning.group(2)}'
        said += "."
        holds = re.search(r"hold back one piece of evidence, (.+?), and cite it after (\d+) turns", system)
        if holds and (room or number >= int(holds.group(2))):
            said += f" Look at {holds.group(1)}."
        text = f"{said} {answer}"

        # A weak draft: a forbidden phrase (the voice guard asks again) or the prompt echoed back.
        slip = self._rng("slip", *channel, number).random() < self.scenario.slip_rate
        if slip and not redraft:
            phrase = re.search(r'NEVER SAY any of these phrases:\n- "([^"]+)"', system)
            if phrase and number % 2:
                return f"{phrase.group(1)}, {text}"
            participants = re.search(r"^Participants: .+$", user, flags=re.M)
            if participants:
                return f"{participants.group(0)}\n{text}"
        return text

    # ── structured calls ──────────────────────────────────────────────────────────────────────

    def _structured_AspectPlan(self, body: dict) -> dict:
        return {
            "aspects": [
                {"label": "Evidence", "description": "What the record shows."},
                {"label": "Consequences", "description": "What follows for policy."},
            ]
        }

    def _structured_PositionUpdate(self, body: dict) -> dict:
        user = body["messages"][0]["content"]
        said = re.search(r'\n([^\n]+?) just said:\n"(.*)"\s*$', user, flags=re.S)
        speaker, text = said.group(1), said.group(2)
        update: dict = {"evidence": [], "challenges_raised": []}
        if answer := _ANSWER_SPOKEN.search(text):
            side = HEARD[answer.group(1).lower()]
            update["topic_side"] = side
            update["overall_stance"] = f"{speaker} answers {SAID[side]}."
            before = re.search(r'"topic_side": "(\w*)"', user)
            if before and before.group(1) and before.group(1) != side:
                update["shift"] = f"now answers {SAID[side]}"
        if evidence := _EVIDENCE_SPOKEN.search(text):
            update["evidence"] = [evidence.group(1)]
        # Agreeing or disagreeing with the one addressed, on the point both spoke to.
        addressed = re.match(r"([^,\n]+), on \"", text)
        recent = user.split("Recent messages before it:\n", 1)[-1].split(f"\n\n{speaker} just said:", 1)[0]
        if addressed and (view := _VIEW_SPOKEN.search(text)):
            question, side = view.group(1) + "?", HEARD[view.group(2).lower()]
            theirs = self._latest_views(recent).get(question, {}).get(addressed.group(1))
            if theirs and theirs != side:
                update["new_disagreement"] = {"with": addressed.group(1), "on": question, "intensity": "strong"}
            elif theirs:
                update["new_agreement"] = {"with": addressed.group(1), "on": question}
        if concession := re.search(r"I concede, (.+?) changes my mind", text):
            update["concession"] = f"{concession.group(1)} changes the picture"
        return update

    def _structured_LedgerDigest(self, body: dict) -> dict:
        return digest_answer(body, self._structured_PositionUpdate)

    def _structured_WindowDigest(self, body: dict) -> dict:
        return digest_answer(body, self._structured_PositionUpdate, self._structured_DisagreementScan)

    def _structured_RoundRecordDraft(self, body: dict) -> dict:
        names = re.findall(r"^([^\n:]+): ", self._user(body).split("\n\n", 1)[-1], flags=re.M)
        takes = [
            {"persona": n, "position": "as stated", "key_argument": "their view", "evidence_cited": [], "engaged": ""}
            for n in dict.fromkeys(names)
        ]
        return {"takes": takes[:6], "summary": "Each restated their view.", "new_disagreements": [], "shifts": []}

    def _structured_RollingSummaryDraft(self, body: dict) -> dict:
        # Neutral on purpose: the scripted summary claims nothing the scenario did not say.
        return {"summary": "The participants argued their positions on the question."}

    def _structured_ReflectionDraft(self, body: dict) -> dict:
        return {"reflections": [{"content": "Positions are stable.", "type": "pattern", "about": [], "importance": 5}]}

    @staticmethod
    def _latest_views(transcript: str) -> dict[str, dict[str, str]]:
        """question -> {speaker: the side they last took on it}, from "Name: text" lines."""
        latest: dict[str, dict[str, str]] = {}
        for line in transcript.splitlines():
            speaker, _, text = line.partition(": ")
            for question, side in _VIEW_SPOKEN.findall(text):
                latest.setdefault(question + "?", {})[speaker] = HEARD[side.lower()]
        return latest

    def _structured_DisagreementScan(self, body: dict) -> dict:
        user = self._user(body)
        transcript = user.split("LATEST MESSAGES\n", 1)[-1]
        known = re.findall(r"^\[(\d+)\] (.+?) vs (.+?): (.+)$", user, flags=re.M)
        window = hashlib.sha256(transcript.encode()).hexdigest()[:8]
        found = []
        for question, sides in self._latest_views(transcript).items():
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
                            int(i)
                            for i, x, y, dispute in known
                            if {x, y} == {a, b} and _closest(dispute, [question]) and rng.random() < 0.5
                        ),
                        None,
                    )
                    low, high = self.scenario.confidence
                    found.append(
                        {
                            "persona_a": a,
                            "persona_b": b,
                            "dispute": wording,
                            "known_id": known_id,
                            "confidence": round(rng.uniform(low, high), 2),
                        }
                    )
        return {"disagreements": found[:4]}

    def _structured_CruxExitCheck(self, body: dict) -> dict:
        said = len(re.findall(r"^[^\n:]+: ", self._user(body).split("\n\n", 1)[-1], flags=re.M))
        return {"surfaced": said >= 4, "crux": "They answer the question differently." if said >= 4 else ""}

    def _structured_CruxCardDraft(self, body: dict) -> dict:
        user = self._user(body)
        a, b = (name.strip() for name in re.search(r"People: (.+?), (.+)", user).group(1, 2))
        question = re.search(r'Disagreement that opened the room: "(.+)"', user).group(1)
        conversation = user.split("CONVERSATION\n", 1)[-1]
        sides: dict[str, str] = {}
        for view in self._latest_views(conversation).values():
            sides.update(view)
        meanings = {m.group(2).strip() for m in _MEANING_SPOKEN.finditer(conversation)}
        evidence = _EVIDENCE_SPOKEN.search(conversation)
        kind = "definition" if len(meanings) > 1 else "evidence" if evidence else "claim"
        resolved = sides.get(a) is not None and sides.get(a) == sides.get(b)
        return {
            "question": question,
            "positions": [
                {
                    "persona": name,
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

    def _structured_EvidenceLedger(self, body: dict) -> dict:
        entries = []
        for line in self._user(body).splitlines():
            speaker, _, text = line.partition(": ")
            evidence = _EVIDENCE_SPOKEN.search(text)
            if evidence and all(e["evidence"] != evidence.group(1) for e in entries):
                entries.append({"persona": speaker, "evidence": evidence.group(1), "used_for": "their view"})
        return {"entries": entries[:10]}

    def _structured_CardJudgement(self, body: dict) -> dict:
        return {"real_crux": 4, "falsifiers_fit": 3, "note": "scripted"}
