"""The truth suite's stand-in for Claude behind the fake Messages API: scripted speakers, and a
naive reader for every extraction call.

Calls are told apart by the gateway's role and phase (the request's X-Faultline-Call tag: ids
only) and, for structured calls, by the schema's title (the call's purpose). A speaking call says
the next hand-written line of its voice (truth_scenarios.py): the voice of the persona the tag
names (``cast``: the harness made each persona from a voice), and a crux room's turns (their
phase) go on the room's question (the item line of the dispute the tag names). Every extraction
call (ledger update, disagreement scan, exit check, crux card, agreement assessment, argument-map
moves, the Collaborate artifact) is answered by ``Reader`` from the prompt's data lines only
(devtools/prompt_reading.py: transcript lines, item lines), with the rules of reading.py: it knows
the debate's topic and who takes part, never the ground truth, and never reads a prompt's wording.

Its regular expressions, besides prompt_reading's two (the data lines) and reading.py's (which read
what was said), read only a data line's text: ``_POINT`` the status before a point's wording in
its item line (``[P1] (agreed) text``, orchestration/modes/analyst_critic/prompts.py), ``_BULLET``
the list items of a role's Markdown answer in its transcript line.

This is the suite kept from before the truth corpus (``manage.py evaluate --suite truth-legacy``):
the suite of record is the corpus (evaluation/corpus/, orchestration/evaluation/corpus_run.py).
Its assessor answers by reference as the app asks: a point it takes for an open one's wording is
named by that point's id, any other is a new point.
"""

from __future__ import annotations

import re
import threading

from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading, Said, digest_answer
from gateways.llm.roles import model_roles
from gateways.llm.types import Role
from orchestration.evaluation import reading
from orchestration.evaluation.reading import NO, NUANCED, REJECT, YES
from orchestration.evaluation.truth_scenarios import COLLABORATE, TruthScenario, Voice
from orchestration.modes.analyst_critic.mode import ANALYST, CRITIC
from orchestration.modes.collaborate.mode import ARCHITECT, REVIEWER

MODEL_PREFIX = "truth-"
_POINT = re.compile(r"^\((?:[^()]*)\) (.*)$", re.S)  # an Analyst/Critic point's item text: "(status) wording"
_BULLET = re.compile(r"^- (.+)$", re.M)


def role_models() -> dict[str, str]:
    """The anthropic provider's role -> model table for a truth run: one model name per role."""
    return {role: f"{MODEL_PREFIX}{role}" for role in model_roles()}


def _lines_by(said: list[Said], names: list[str]) -> list[tuple[str, str]]:
    """(speaker, text) of the transcript lines of the participants ``names``, a text's further
    lines joined with spaces."""
    return [(line.name, " ".join(line.text.split("\n"))) for line in said if line.name in names]


class TruthScript:
    """``cast``: the voice of each persona, by persona id (the harness made the personas from the
    scenario's voices: truth.py ``truth_run``)."""

    def __init__(self, scenario: TruthScenario, cast: dict[str, Voice] | None = None) -> None:
        self.scenario = scenario
        self.cast = dict(cast or {})
        self.reader = Reader(scenario.topic, [voice.name for voice in scenario.voices])
        self.calls: dict[str, int] = {}
        self._said: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def respond(self, body: dict, call: Call) -> Reply:
        role = call.role
        reading = Reading(body, call)
        purpose = reading.title or "speech"
        with self._lock:
            self.calls[f"{role}:{purpose}"] = self.calls.get(f"{role}:{purpose}", 0) + 1
        if reading.title:
            return Reply.json(self.reader.answer(purpose, reading))
        if role == Role.SYNTHESIS and COLLABORATE in self.scenario.modes:
            return Reply.says(self.reader.artifact(reading), chunk_size=40)
        return Reply.says(self._speak(role, reading), chunk_size=40)

    def _next(self, voice: Voice, channel: str, lines: tuple[str, ...]) -> str:
        with self._lock:
            number = self._said.get((voice.name, channel), 0)
            self._said[(voice.name, channel)] = number + 1
        return lines[min(number, len(lines) - 1)]

    def _speak(self, role: str, reading: Reading) -> str:
        voices, call = self.scenario.voices, reading.call
        if role in (ANALYST, ARCHITECT):
            return self._next(voices[0], role, voices[0].lines[:-1] if role == ANALYST else voices[0].lines)
        if role in (CRITIC, REVIEWER):
            return self._next(voices[1], role, voices[1].lines)
        if role == Role.SYNTHESIS:  # the Analyst/Critic synthesis
            return voices[0].lines[-1]
        voice = self.cast.get(call.persona, voices[0])
        room = reading.items.get(call.items[0]) if call.phase.startswith("crux_room") and call.items else None
        if room and voice.room:
            return self._next(voice, room.text, voice.room)
        return self._next(voice, "", voice.lines)


class Reader:
    """Answers each structured call from what its prompt shows, by the call's purpose."""

    def __init__(self, topic: str, names: list[str]) -> None:
        self.topic = topic
        self.names = names

    def answer(self, purpose: str, reading: Reading) -> dict:
        handler = getattr(self, f"_{purpose}", None)
        return handler(reading) if handler else {}

    # ── the dialogue's side work ──────────────────────────────────────────────────────────────

    def _AspectPlan(self, reading: Reading) -> dict:
        return {
            "aspects": [
                {"label": "The record", "description": "What has happened so far."},
                {"label": "What follows", "description": "What it means from here."},
            ]
        }

    def _RollingSummaryDraft(self, reading: Reading) -> dict:
        # Neutral on purpose: the summary claims nothing the script did not say.
        return {"summary": "The participants argued their positions on the question."}

    def _position_update(self, shown: Reading, said: Said, before: list[Said]) -> dict:
        """One message's ledger update: its side on the topic, whom it contradicts or agrees with."""
        speaker, text = said.name, " ".join(said.text.split("\n"))
        update: dict = {"evidence": [], "challenges_raised": []}
        side = reading.side_on(text, self.topic)
        if side:
            update["topic_side"] = side
            update["overall_stance"] = f"{speaker} answers {side.lower()}."
            earlier = self._side_before(shown, said)
            if earlier and earlier != side:
                update["shift"] = f"now answers {side.lower()}"
        other = reading.addressed(text, [n for n in self.names if n != speaker])
        if other:
            first = reading.sentences(text)[0] if reading.sentences(text) else text
            if any(reading.contradiction(s) for s in reading.sentences(text)):
                update["new_disagreement"] = {"with": other, "on": self.topic, "intensity": "strong"}
            elif reading.verdict(first) == reading.ACCEPT or "same" in reading.words(first):
                update["new_agreement"] = {"with": other, "on": self.topic}
        return update

    def _side_before(self, shown: Reading, said: Said) -> str | None:
        """The side ``said``'s speaker last took on the topic in the lines shown before it."""
        side = None
        for line in shown.said:
            if line.turn == said.turn:
                break
            if line.name == said.name and (taken := reading.side_on(" ".join(line.text.split("\n")), self.topic)):
                side = taken
        return side

    def _LedgerDigest(self, shown: Reading) -> dict:
        return digest_answer(shown, self._position_update)

    def _WindowDigest(self, shown: Reading) -> dict:
        return digest_answer(shown, self._position_update, self._DisagreementScan)

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

    def _DisagreementScan(self, shown: Reading) -> dict:
        # The disputes it knows: their item lines, by the numbers the tag names ("A vs B: question").
        known = [(key, shown.items[key].text) for key in shown.call.items if key in shown.items]
        said = _lines_by(shown.said, self.names)
        sides = self._sides(said)
        found = []

        def known_id(a: str, b: str, dispute: str) -> int | None:
            return next((int(i) for i, d in known if a in d and b in d and self._same(d, dispute)), None)

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

    def _CruxExitCheck(self, shown: Reading) -> dict:
        said = _lines_by(shown.said, self.names)
        surfaced = len(said) >= 4
        return {"surfaced": surfaced, "crux": "Each has said where they stand." if surfaced else ""}

    def _CruxCardDraft(self, shown: Reading) -> dict:
        a, b = (shown.participants + ["", ""])[:2]  # the room's two
        question = shown.items[shown.call.items[0]].text  # the room's dispute
        said = _lines_by(shown.said, self.names)
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

    def _RoundRecordDraft(self, shown: Reading) -> dict:
        return {"takes": [], "summary": "Each restated their view.", "new_disagreements": [], "shifts": []}

    def _ReflectionDraft(self, shown: Reading) -> dict:
        return {"reflections": []}

    def _EvidenceLedger(self, shown: Reading) -> dict:
        return {"entries": []}

    # ── the graph mode's crystallizer ─────────────────────────────────────────────────────────

    def _Crystallization(self, shown: Reading) -> dict:
        turns = [(line.turn, line.name, line.text) for line in shown.said]
        fresh = {turn for turn, _, _ in turns if turn in shown.call.turns}  # the new turns, by the tag
        last_turn = {speaker: n for n, speaker, _ in turns}
        # The map's item lines: a dispute "[D1] (type) question", under it its stances
        # "[S1] Name: YES — claim" (the participants' lines are items too, by persona id).
        people = set(shown.call.participants)
        disputes = [(i.id, i.text) for i in shown.items.values() if i.depth == 0 and i.id not in people]
        stances = [(i.id, i.held.split(" ", 1)[0], i.holder) for i in shown.items.values() if i.depth == 1]
        draft: dict = {"moves": [{"turn": n, "move": "CLAIM"} for n in sorted(fresh)]}
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
        quibbles = self._quibbles([(speaker, text) for n, speaker, text in turns if n in fresh])
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

    def _AgreementAssessment(self, shown: Reading) -> dict:
        # The round's two turns, by the tag: the Analyst's answer, then the Critic's assessment.
        answer_turn, evaluation_turn = shown.call.turns
        answer, evaluation = shown.said_at(answer_turn), shown.said_at(evaluation_turn)
        evaluation = evaluation.text if evaluation else ""
        points = reading.numbered_points(answer.text if answer else "")
        # The open points: their item lines, "[P1] (status) wording", answered by id.
        ledger = {item.id: point[1] for item in shown.items.values() if (point := _POINT.match(item.text))}
        agreed, disagreed = [], []
        for sentence in reading.sentences(evaluation):
            verdict = reading.verdict(sentence)
            if verdict is None:
                continue
            clause = reading.that_clause(sentence)
            texts = [clause] if clause else [points[n] for n in reading.point_referred(sentence, points)]
            for text in texts:
                text = self._ledger_wording(text, list(ledger.values()))
                (disagreed if verdict == REJECT else agreed).append(text)
        overall = "strong" if agreed and not disagreed else "moderate" if agreed else "weak"
        ids = {wording: key for key, wording in ledger.items()}
        by_id, new = [], []
        for status, texts in (("accepted", agreed), ("contested", disagreed)):
            for text in dict.fromkeys(texts):
                if text in ids:
                    by_id.append({"id": ids[text], "status": status})
                else:
                    new.append({"text": text, "status": status})
        return {"points": by_id, "new_points": new, "overall": overall}

    def _ledger_wording(self, text: str, ledger: list[str]) -> str:
        """The ledger's wording for a point it already holds (as the assessor is asked), when the
        two say the same thing: the same words, and both or neither negated."""
        for known in ledger:
            if self._same(text, known) and _negated(text) == _negated(known):
                return known
        return text

    # ── the Collaborate artifact ──────────────────────────────────────────────────────────────

    def artifact(self, shown: Reading) -> str:
        answers = {said.name: said.text for said in shown.said}  # each role's latest answer, by its role's name
        bullets = {role: _BULLET.findall(text) for role, text in answers.items()}
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
