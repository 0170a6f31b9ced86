"""The truth suite's stand-in for Claude behind the fake Messages API: scripted speakers, and a
naive reader for every extraction call.

Calls are told apart by the gateway's role and phase (the request's X-Faultline-Call header) and,
for structured calls, by the schema's title (the call's purpose). A speaking call says the next
hand-written line of its voice (truth_scenarios.py): the persona is the one whose contract is in
the call's system prefix, and a crux room's turns (their phase) go on the room's question. Every
extraction call (ledger update, disagreement scan, exit check, crux card, agreement assessment,
argument-map moves, the Collaborate artifact) is answered by ``Reader`` from what the prompt shows,
with the rules of reading.py: it knows the debate's topic and who takes part, never the ground truth.
"""

from __future__ import annotations

import re
import threading

from devtools.digest_reading import digest_answer
from devtools.fake_messages_api import Call, Reply, message_text
from gateways.llm.roles import model_roles
from gateways.llm.types import Role
from orchestration.evaluation import reading
from orchestration.evaluation.reading import NO, NUANCED, REJECT, YES
from orchestration.evaluation.truth_scenarios import COLLABORATE, TruthScenario, Voice
from orchestration.modes.analyst_critic.mode import ANALYST, CRITIC
from orchestration.modes.collaborate.mode import ARCHITECT, REVIEWER

MODEL_PREFIX = "truth-"


def role_models() -> dict[str, str]:
    """The anthropic provider's role -> model table for a truth run: one model name per role."""
    return {role: f"{MODEL_PREFIX}{role}" for role in model_roles()}


def _text_of(body: dict, who: str) -> str:
    return "\n".join(message_text(m["content"]) for m in body["messages"] if m["role"] == who)


def _system_blocks(body: dict) -> list[str]:
    system = body.get("system") or ""
    return [system] if isinstance(system, str) else [block["text"] for block in system]


def _after(text: str, header: str) -> str:
    return text.split(header, 1)[1] if header in text else ""


def _lines_by(text: str, names: list[str]) -> list[tuple[str, str]]:
    """(speaker, text) of "Name: text" transcript lines (a turn's text may run over several lines)."""
    said: list[tuple[str, str]] = []
    for line in text.splitlines():
        line = re.sub(r"^\[turn \d+\]\s*", "", line)
        speaker = next((n for n in names if line.startswith(f"{n}: ")), None)
        if speaker:
            said.append((speaker, line[len(speaker) + 2 :]))
        elif said and line.strip():
            said[-1] = (said[-1][0], f"{said[-1][1]} {line.strip()}")
    return said


class TruthScript:
    def __init__(self, scenario: TruthScenario) -> None:
        self.scenario = scenario
        self.reader = Reader(scenario.topic, [voice.name for voice in scenario.voices])
        self.calls: dict[str, int] = {}
        self._said: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def respond(self, body: dict, call: Call) -> Reply:
        role = call.role
        output = (body.get("output_config") or {}).get("format")
        purpose = output.get("schema", {}).get("title", "") if output else "speech"
        with self._lock:
            self.calls[f"{role}:{purpose}"] = self.calls.get(f"{role}:{purpose}", 0) + 1
        if output:
            return Reply.json(self.reader.answer(purpose, body))
        if role == Role.SYNTHESIS and COLLABORATE in self.scenario.modes:
            return Reply.says(self.reader.artifact(body), chunk_size=40)
        return Reply.says(self._speak(role, body, call.phase), chunk_size=40)

    def _next(self, voice: Voice, channel: str, lines: tuple[str, ...]) -> str:
        with self._lock:
            number = self._said.get((voice.name, channel), 0)
            self._said[(voice.name, channel)] = number + 1
        return lines[min(number, len(lines) - 1)]

    def _speak(self, role: str, body: dict, phase: str) -> str:
        voices = self.scenario.voices
        if role in (ANALYST, ARCHITECT):
            return self._next(voices[0], role, voices[0].lines[:-1] if role == ANALYST else voices[0].lines)
        if role in (CRITIC, REVIEWER):
            return self._next(voices[1], role, voices[1].lines)
        if role == Role.SYNTHESIS:  # the Analyst/Critic synthesis
            return voices[0].lines[-1]
        prefix = _system_blocks(body)[0]
        voice = next((v for v in voices if v.name in prefix), voices[0])
        user = _text_of(body, "user")
        room = re.search(r'THIS ROOM[^\n]*\n[^"\n]*"(.+)"', user) if phase.startswith("crux_room") else None
        if room and voice.room:
            return self._next(voice, room.group(1), voice.room)
        return self._next(voice, "", voice.lines)


class Reader:
    """Answers each structured call from what its prompt shows, by the call's purpose."""

    def __init__(self, topic: str, names: list[str]) -> None:
        self.topic = topic
        self.names = names

    def answer(self, purpose: str, body: dict) -> dict:
        if purpose in ("LedgerDigest", "WindowDigest"):  # read as the calls a digest stands for
            return getattr(self, f"_{purpose}")(body)
        handler = getattr(self, f"_{purpose}", None)
        return handler(_text_of(body, "user")) if handler else {}

    # ── the dialogue's side work ──────────────────────────────────────────────────────────────

    def _AspectPlan(self, user: str) -> dict:
        return {
            "aspects": [
                {"label": "The record", "description": "What has happened so far."},
                {"label": "What follows", "description": "What it means from here."},
            ]
        }

    def _RollingSummaryDraft(self, user: str) -> dict:
        # Neutral on purpose: the summary claims nothing the script did not say.
        return {"summary": "The participants argued their positions on the question."}

    def _PositionUpdate(self, user: str) -> dict:
        said = re.search(r'\n([^\n]+?) just said:\n"(.*)"\s*$', user, flags=re.S)
        if not said:
            return {}
        speaker, text = said.group(1), said.group(2)
        update: dict = {"evidence": [], "challenges_raised": []}
        side = reading.side_on(text, self.topic)
        if side:
            update["topic_side"] = side
            update["overall_stance"] = f"{speaker} answers {side.lower()}."
            before = re.search(r'"topic_side": "(\w*)"', user)
            if before and before.group(1) and before.group(1) != side:
                update["shift"] = f"now answers {side.lower()}"
        other = reading.addressed(text, [n for n in self.names if n != speaker])
        if other:
            first = reading.sentences(text)[0] if reading.sentences(text) else text
            if any(reading.contradiction(s) for s in reading.sentences(text)):
                update["new_disagreement"] = {"with": other, "on": self.topic, "intensity": "strong"}
            elif reading.verdict(first) == reading.ACCEPT or "same" in reading.words(first):
                update["new_agreement"] = {"with": other, "on": self.topic}
        return update

    def _LedgerDigest(self, body: dict) -> dict:
        return digest_answer(body, lambda one: self._PositionUpdate(_text_of(one, "user")))

    def _WindowDigest(self, body: dict) -> dict:
        return digest_answer(
            body,
            lambda one: self._PositionUpdate(_text_of(one, "user")),
            lambda scan: self._DisagreementScan(_text_of(scan, "user")),
        )

    def _sides(self, said: list[tuple[str, str]]) -> dict[str, str]:
        sides: dict[str, str] = {}
        for speaker, text in said:
            if side := reading.side_on(text, self.topic):
                sides[speaker] = side
        return sides

    def _quibbles(self, said: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
        """(speaker, addressed, question) for each line that tells someone they are wrong about
        something other than the debate's question."""
        found = []
        for speaker, text in said:
            other = reading.addressed(text, [n for n in self.names if n != speaker])
            if not other:
                continue
            for sentence in reading.sentences(text):
                if reading.contradiction(sentence) and not reading.relevant(sentence, self.topic):
                    found.append((speaker, other, reading.quibble_question(sentence)))
                    break
        return found

    @staticmethod
    def _same(a: str, b: str) -> bool:
        words_a, words_b = reading.content_words(a), reading.content_words(b)
        return bool(words_a and words_b) and len(words_a & words_b) >= 0.5 * min(len(words_a), len(words_b))

    def _DisagreementScan(self, user: str) -> dict:
        known = re.findall(r"^\[(\d+)\] (.+?) vs (.+?): (.+)$", _after(user, "KNOWN DISPUTES\n"), flags=re.M)
        said = _lines_by(_after(user, "LATEST MESSAGES\n"), self.names)
        sides = self._sides(said)
        found = []

        def known_id(a: str, b: str, dispute: str) -> int | None:
            return next((int(i) for i, x, y, d in known if {x, y} == {a, b} and self._same(d, dispute)), None)

        speakers = sorted(sides)
        for i, a in enumerate(speakers):
            for b in speakers[i + 1 :]:
                if {sides[a], sides[b]} == {YES, NO}:
                    found.append(
                        {
                            "persona_a": a,
                            "persona_b": b,
                            "dispute": self.topic,
                            "known_id": known_id(a, b, self.topic),
                            "confidence": 0.9,
                        }
                    )
        for a, b, question in self._quibbles(said):
            if not any({f["persona_a"], f["persona_b"]} == {a, b} for f in found):
                found.append(
                    {
                        "persona_a": a,
                        "persona_b": b,
                        "dispute": question,
                        "known_id": known_id(a, b, question),
                        "confidence": 0.85,
                    }
                )
        return {"disagreements": found[:4]}

    def _CruxExitCheck(self, user: str) -> dict:
        said = _lines_by(user, self.names)
        surfaced = len(said) >= 4
        return {"surfaced": surfaced, "crux": "Each has said where they stand." if surfaced else ""}

    def _CruxCardDraft(self, user: str) -> dict:
        people = re.search(r"People: (.+)", user)
        a, b = (name.strip() for name in people.group(1).split(", ", 1))
        question = re.search(r'opened the room: "(.+)"', user).group(1)
        said = _lines_by(_after(user, "CONVERSATION\n"), self.names)
        sides = {}
        for name in (a, b):
            text = " ".join(t for speaker, t in said if speaker == name)
            sides[name] = reading.side_on(text, question) or NUANCED
        resolved = sides[a] == sides[b] and sides[a] != NUANCED
        return {
            "question": question,
            "positions": [
                {
                    "persona": name,
                    "position": sides[name],
                    "reasoning": f"{name} answers {sides[name].lower()}.",
                    "falsifier": "Evidence they have not seen yet.",
                }
                for name in (a, b)
            ],
            "disagreement_type": "claim",
            "diagnosis": "They read the same record differently.",
            "resolved": resolved,
            "resolution": "They ended on the same side." if resolved else "",
        }

    def _RoundRecordDraft(self, user: str) -> dict:
        return {"takes": [], "summary": "Each restated their view.", "new_disagreements": [], "shifts": []}

    def _ReflectionDraft(self, user: str) -> dict:
        return {"reflections": []}

    def _EvidenceLedger(self, user: str) -> dict:
        return {"entries": []}

    # ── the graph mode's crystallizer ─────────────────────────────────────────────────────────

    def _Crystallization(self, user: str) -> dict:
        new = _after(user, "NEW TURNS\n")
        turns = [
            (int(n), speaker, text) for n, speaker, text in re.findall(r"^\[turn (\d+)\] ([^:\n]+): (.*)$", user, re.M)
        ]
        fresh = {n for n, _, _ in re.findall(r"^\[turn (\d+)\] ([^:\n]+): (.*)$", new, re.M)}
        last_turn = {speaker: n for n, speaker, _ in turns}
        map_now = _after(user, "THE MAP NOW\n").split("\n\n", 1)[0]
        disputes = re.findall(r"^(D\d+) \[\w+\] (.+)$", map_now, re.M)
        stances = re.findall(r"^\s+(S\d+) (YES|NO) — ([^:]+): ", map_now, re.M)
        draft: dict = {"moves": [{"turn": int(n), "move": "CLAIM"} for n in sorted(fresh, key=int)]}
        sides: dict[str, tuple[str, int, str]] = {}
        for n, speaker, text in turns:
            side = reading.side_on(text, self.topic)
            if side in (YES, NO):
                sides[speaker] = (side, n, text[:200])
        topic_dispute = next((d for d, q in disputes if self._same(q, self.topic)), None)

        def stance(name: str, side: str, turn: int, claim: str) -> dict:
            return {"persona": name, "side": side, "claim": claim, "turn": turn, "assumptions": []}

        if topic_dispute is None:
            if {s for s, _, _ in sides.values()} == {YES, NO}:
                draft["new_disputes"] = [
                    {
                        "question": self.topic,
                        "disagreement_type": "claim",
                        "stances": [stance(name, *sides[name]) for name in sides],
                    }
                ]
        else:
            holders = {name: (sid, side) for sid, side, name in stances}
            draft["new_stances"] = [
                {"dispute_id": topic_dispute, **stance(name, *sides[name])} for name in sides if name not in holders
            ]
            draft["concessions"] = [
                {"persona": name, "target_id": holders[name][0], "what": "their answer", "turn": sides[name][1]}
                for name in sides
                if name in holders and holders[name][1] != sides[name][0]
            ]
        quibbles = self._quibbles([(speaker, text) for n, speaker, text in turns if str(n) in fresh])
        for speaker, other, question in quibbles[:1]:
            if any(self._same(q, question) for _, q in disputes) or other not in last_turn:
                continue
            draft.setdefault("new_disputes", []).append(
                {
                    "question": question,
                    "disagreement_type": "evidence",
                    "stances": [
                        stance(speaker, YES, last_turn[speaker], "Says it is so."),
                        stance(other, NO, last_turn[other], "Said otherwise."),
                    ],
                }
            )
        return draft

    # ── the Analyst/Critic assessor ───────────────────────────────────────────────────────────

    def _AgreementAssessment(self, user: str) -> dict:
        answer = re.search(r"The Analyst's answer \(round \d+\):\n(.*?)\n\nThe Critic's", user, re.S)
        evaluation = _after(user, "The Critic's evaluation")
        evaluation = evaluation.split(":\n", 1)[1] if ":\n" in evaluation else evaluation
        points = reading.numbered_points(answer.group(1) if answer else "")
        ledger = re.findall(r"^- \[\w+\] (.+)$", _after(user, "Point ledger so far:\n").split("\n\n", 1)[0], re.M)
        agreed, disagreed = [], []
        for sentence in reading.sentences(evaluation):
            verdict = reading.verdict(sentence)
            if verdict is None:
                continue
            clause = reading.that_clause(sentence)
            texts = [clause] if clause else [points[n] for n in reading.point_referred(sentence, points)]
            for text in texts:
                text = self._ledger_wording(text, ledger)
                (disagreed if verdict == REJECT else agreed).append(text)
        overall = "strong" if agreed and not disagreed else "moderate" if agreed else "weak"
        return {
            "agreed": [{"point": t, "reasoning": "The Critic accepts it."} for t in dict.fromkeys(agreed)],
            "disagreed": [{"point": t, "counter_argument": "The Critic rejects it."} for t in dict.fromkeys(disagreed)],
            "unverifiable": [],
            "overall": overall,
        }

    def _ledger_wording(self, text: str, ledger: list[str]) -> str:
        """The ledger's wording for a point it already holds (as the assessor is asked), when the
        two say the same thing: the same words, and both or neither negated."""
        for known in ledger:
            if self._same(text, known) and _negated(text) == _negated(known):
                return known
        return text

    # ── the Collaborate artifact ──────────────────────────────────────────────────────────────

    def artifact(self, body: dict) -> str:
        user = _text_of(body, "user")
        answers = dict(
            re.findall(r"The (\w+)'s revised answer:\n\n(.*?)(?=\n\nThe \w+'s revised answer:|\Z)", user, re.S)
        )
        bullets = {role: re.findall(r"^- (.+)$", text, re.M) for role, text in answers.items()}
        plan = bullets.get("Architect", [])
        questions = []
        for remark in bullets.get("Reviewer", []):
            if reading.verdict(remark) != REJECT:
                continue
            target = max(plan, key=lambda b: len(reading.content_words(b) & reading.content_words(remark)), default="")
            if target and len(reading.content_words(target) & reading.content_words(remark)) >= 2:
                questions.append(f"Is this right: {target[:1].lower() + target[1:].rstrip('.')}?")
        parts = [f"# {self.topic.rstrip('.')}", "## Plan", "\n".join(f"- {b}" for b in plan)]
        agreed = [r for r in bullets.get("Reviewer", []) if reading.verdict(r) != REJECT]
        if agreed:
            parts += ["## Checks", "\n".join(f"- {r}" for r in agreed)]
        if questions:
            parts += ["## Open questions", "\n".join(f"- {q}" for q in questions)]
        return "\n\n".join(parts)


def _negated(text: str) -> bool:
    return any(w in ("not", "no", "never") or w.endswith("n't") for w in reading.words(text))
