"""The truth corpus's stand-in for Claude behind the fake Messages API: scripted speakers that say a
scenario's lines, and the scripted reader (corpus_reader.py) for every structured call.

A call is told apart by its tag (the X-Faultline-Call header: role, phase, persona, round, turn,
room, attempt...) and, for a structured call, its schema's title; what it shows is read from the
prompt's two data lines only (devtools/prompt_reading.py). Never a prompt's wording.

The speakers (evaluation/corpus/README.md, "How a runner plays a scenario"; the choices below are
the runner's answers to the corpus author's open questions, benchmarks/README.md):
- Analyst/Critic: round n's Analyst call says ``rounds[n].analyst``, its Critic call
  ``rounds[n].critic`` (an unusable one says nothing), the synthesis call ``synthesis``. The
  debate has as many rounds as the scenario: rounds after a consensus are never played.
- Collaborate: each role's draft and revision, and the artifact for the synthesis call.
- Dialogue and graph: the app picks who speaks; a persona says its next unsaid line of the kind it
  is asked for (its opening, its next main-channel turn, its closing), so lines are said in the
  scenario's order per persona, whatever order the app gives the floor in. A persona out of
  main-channel lines passes (``PASS``). A crux room on a question the scenario has a room for plays
  that room's lines, each persona its own next one; a room it has none for, or a persona out of
  room lines, says nothing: the app accepts no pass in a room, and drops a turn that says nothing.
- The voice guard's second draft (the tag's ``attempt`` 2) says the same utterance's ``again``
  (the answer in other words), or its text again when it has none.
"""

from __future__ import annotations

import threading
from collections import Counter

from devtools.fake_messages_api import Call, Reply, system_text
from devtools.prompt_reading import Reading
from evaluation.corpus.loader import Scenario, Utterance
from gateways.llm.roles import model_roles
from orchestration.evaluation.corpus_reader import CorpusReader
from orchestration.evaluation.corpus_stage import Stage

MODEL_PREFIX = "corpus-"
PASS = "PASS"
CHUNK = 200  # characters per streamed delta: the stream is exercised, a long turn is not slow
# The roles whose prompts must carry what the debate recalled (metrics: "recalled").
SPEAKING_ROLES = ("persona", "analyst", "critic", "architect", "reviewer", "synthesis")


def role_models() -> dict[str, str]:
    """The anthropic provider's role -> model table for a corpus run: one model name per role."""
    return {role: f"{MODEL_PREFIX}{role}" for role in model_roles()}


class CorpusScript:
    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.stage = Stage(scenario)
        self.reader = CorpusReader(scenario, self.stage)
        self.calls: Counter = Counter()
        self.prompts: list[tuple[str, str, str]] = []  # (role, phase, system prompt) of each speaking call
        self.passes = 0  # main-channel turns a persona out of lines passed
        self.silences = 0  # room turns a persona had nothing to say in
        self._first: dict[tuple, Utterance] = {}
        self._lock = threading.Lock()

    def respond(self, body: dict, call: Call) -> Reply:
        return self.answer(Reading(body, call))

    def answer(self, reading) -> Reply:
        call = reading.call
        with self._lock:
            self.calls[f"{call.role}:{reading.title or call.phase}"] += 1
        if reading.title:
            return Reply.json(self.reader.answer(reading))
        with self._lock:
            self.prompts.append((call.role, call.phase, system_text(reading.body)))
        return Reply.says(self.say(reading), chunk_size=CHUNK)

    # ── the speakers ──────────────────────────────────────────────────────────────────────────

    def say(self, reading) -> str:
        call = reading.call
        key = (call.persona, call.role, call.phase, call.turn, call.room, call.round)
        with self._lock:
            first = self._first.get(key)
        if call.attempt > 1 and first is not None:
            return first.said.again or first.said.text
        utterance, channel = self._next(reading)
        if utterance is None:
            if call.phase.startswith("crux_room"):
                return ""
            with self._lock:
                self.passes += 1
            return PASS
        with self._lock:
            self._first[key] = utterance
        self.stage.say(utterance, channel=channel, turn=call.turn)
        return utterance.said.text

    def _next(self, reading) -> tuple[Utterance | None, str]:
        call, by_key = reading.call, self.stage.by_key
        if call.role in ("analyst", "critic") and call.round is not None:
            number = min(call.round, len(self.s.rounds))
            return by_key.get(f"round {number} {call.role}"), "round"
        if call.phase == "analyst_critic_synthesis":
            return by_key.get("synthesis"), "round"
        if call.phase == "collaborate_artifact":
            return by_key.get("artifact"), "collaborate"
        if call.phase in ("collaborate_draft", "collaborate_revision"):
            return by_key.get(f"{call.phase.removeprefix('collaborate_')} {call.role}"), "collaborate"
        name = self.stage.personas.get(call.persona, "")
        if call.phase.startswith("crux_room"):
            return self._room_line(reading, name), f"room {call.room}"
        kind = {"opening": "opening", "closing": "closing"}.get(call.phase, "turn")
        return self._unsaid(name, lambda u: u.where.startswith("turn ") and u.said.kind == kind), "main"

    def _unsaid(self, name: str, fits) -> Utterance | None:
        said = self.stage.said_keys()
        return next((u for u in self.stage.utterances if u.speaker == name and fits(u) and u.where not in said), None)

    def _room_line(self, reading, name: str) -> Utterance | None:
        item = reading.items.get(reading.call.items[0]) if reading.call.items else None
        question = self.reader.question_in(item.text) if item is not None else None
        room = next(
            (r for r in self.s.rooms if question is not None and r.on == question.id and name in r.between), None
        )
        if room is None:
            with self._lock:
                self.silences += 1
            return None
        said = self.stage.said_keys()
        for number, turn in enumerate(room.turns, 1):
            where = f"room {room.on} turn {number}"
            if turn.speaker == name and where not in said:
                return self.stage.by_key[where]
        with self._lock:
            self.silences += 1
        return None

    def unsaid(self) -> list[str]:
        """The scenario's lines the app never asked for (turn order, an early end)."""
        said = self.stage.said_keys()
        return [
            u.where for u in self.stage.utterances if u.where not in said and u.where.startswith(("turn ", "room "))
        ]
