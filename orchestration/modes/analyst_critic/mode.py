"""The Analyst/Critic mode (seeds/dual-ai-debate.md, Proflow): two roles, each on its own model,
argue in rounds until they agree or the rounds run out, then a synthesis writes the answer.

Each round the Analyst answers (from round 2 refining on the Critic's last evaluation), the Critic
evaluates and ends its evaluation with Proflow's Agreement Assessment section, and a structured
call (the Critic's model, repaired once, skipped when still unusable: the debate goes on) reads
that section, with the Analyst's answer, against the open points shown by their ids: for every id
what the round did to it, and the new points (issue 39: judged by reference). It is folded into
the point ledger, which checks every id and every closing (orchestration/modes/analyst_critic/consensus.py),
and the round's score is persisted as an event before it is pushed. A round whose Critic said
nothing usable gets no assessment (nothing is read from an empty evaluation) and says so.
Consensus (the verdict of debates/regime.py: both final answers recorded, at least one point held,
every point held agreed) or the last round ends the rounds; the synthesis is streamed as a
message. Seat 0 plays the Analyst, seat 1 the Critic; their personas' worldviews only colour the
roles, and what the debate recalled from the owner's earlier debates (insights and established
facts) is in both roles' prompts and the synthesis's, as in every mode's.

Every step is read back from the log, so a run that follows a dead one carries on at the round,
and the turn, where it stopped.

After each round that does not end the debate, the run pauses (the debate_paused event; no worker
holds it) unless the owner chose auto-continue: whether a pause is due is read from the log too (no
debate_continued after the round's score), so a run after a dead worker pauses where it should.
Established facts recalled from the owner's earlier debates (memory/) also seed the ledger as
agreed points before round 1 (a round 0 score, its points marked ``from_memory``); the ledger
records what would change one as a challenge to it, and the fact stands.
"""

from __future__ import annotations

import logging
import re

from django.conf import settings
from django.db import transaction

from debates import payloads as p
from debates.models import Debate, Event, Message
from debates.regime import CONSENSUS, Evidence, analyst_critic_evidence, verdict
from debates.services.context import side_work_prompt, with_context
from debates.services.events import event_append
from debates.services.interjections import interjections_answer_in, interjections_guidance
from debates.state import EventKind
from gateways.llm import gateway
from gateways.llm.prompt_lines import item_line, said_line
from gateways.llm.types import CallTag, Prompt, Role
from memory.context import memory_section
from memory.services.recall import recalled_for
from orchestration.interjecting import interjections_for_round
from orchestration.loop import DebatePaused
from orchestration.modes.analyst_critic import prompts as words
from orchestration.modes.analyst_critic.consensus import (
    AGREED,
    CONTESTED,
    NEGATED,
    REFINED,
    SUPERSEDED,
    UNVERIFIABLE,
    WITHDRAWN,
    Point,
    PointLedger,
    assessment_section,
    condensed_summary,
    same_point,
    without_section,
)
from orchestration.modes.base import Mode
from orchestration.schemas import AgreementAssessment
from orchestration.speaking import Speaker, TurnRequest

logger = logging.getLogger(__name__)

# Its model roles: its spec row (debates/modes.py) registers them with their default models.
ANALYST, CRITIC = "analyst", "critic"

SUMMARISE_AFTER = 8  # messages: past this, older ones are condensed
KEEP_IN_FULL = 6  # the most recent messages always given word for word

ROLE_NAMES = {Message.Kind.ANALYSIS: "Analyst", Message.Kind.CRITIQUE: "Critic", Message.Kind.SYNTHESIS: "Synthesis"}
# Why a round got no assessment (RoundScored.skipped).
CRITIC_SILENT, UNREADABLE = "critic_silent", "unreadable"


class AnalystCriticMode(Mode):
    name = "analyst_critic"

    def __init__(self, run) -> None:
        super().__init__(run)
        if len(run.speakers) < 2:
            raise ValueError("an Analyst/Critic debate needs two participants (Analyst, Critic)")
        self.analyst, self.critic = run.speakers[0], run.speakers[1]
        self.max_rounds = max(1, run.debate.max_turns or settings.FAULTLINE_ANALYST_MAX_ROUNDS)
        last = self._last_scored()
        self.ledger = PointLedger.from_dicts([point.model_dump() for point in last.points]) if last else PointLedger()
        self.rounds_done = last.round if last else 0
        self.reached_consensus = bool(last and last.consensus)
        self.last_assessed = bool(last and last.round and last.assessed)  # the Critic's final answer

    def phases(self):
        return [self._rounds, self._synthesis]

    # ── rounds ────────────────────────────────────────────────────────────────────────────────

    def _rounds(self) -> None:
        if self.rounds_done == 0 and not self.ledger.points:
            self._seed_from_memory()
        while not self.reached_consensus and self.rounds_done < self.max_rounds:
            if self.rounds_done and self._pause_due():
                raise DebatePaused("round", round=self.rounds_done)
            number = self.rounds_done + 1
            self.run.phase("round", number - 1)
            # The owner's interjections since the last round (posted while it paused, too) are the
            # guidance this one follows: both roles read them; the one addressed (else the Analyst) answers.
            heard = self._interjections(2 * number - 1, number - 1)
            analysis = self._turn(
                self.analyst, Message.Kind.ANALYSIS, 2 * number - 1, ANALYST, words.ANALYST_SYSTEM, number, heard
            )
            interjections_answer_in(interjections=heard, message=analysis, persona=self.analyst.persona, default=True)
            critique = self._turn(
                self.critic, Message.Kind.CRITIQUE, 2 * number, CRITIC, words.CRITIC_SYSTEM, number, heard
            )
            interjections_answer_in(interjections=heard, message=critique, persona=self.critic.persona, default=False)
            self._score(number, critique)

    def _interjections(self, turn: int, aspect_index: int):
        return interjections_for_round(
            debate=self.run.debate, turn=turn, default_persona=self.analyst.persona, aspect_index=aspect_index
        )

    def _pause_due(self) -> bool:
        """After a round: pause, unless auto-continue was chosen or the owner already continued."""
        self.run.check_stop()  # a Stop wins over the pause
        if Debate.objects.filter(pk=self.run.debate.pk, auto_continue=True).exists():
            return False
        events = Event.objects.filter(debate=self.run.debate)
        scored = events.filter(kind=EventKind.ROUND_SCORED).order_by("-seq").values_list("seq", flat=True).first()
        return not events.filter(kind=EventKind.DEBATE_CONTINUED, seq__gt=scored or 0).exists()

    def _seed_from_memory(self) -> None:
        """Established facts the debate recalled (memory/) become agreed points before round 1."""
        facts, _, _ = recalled_for(debate=self.run.debate)
        for item in facts:
            text = " ".join(item.insight.text.split())
            if text and not any(same_point(text, point.text) for point in self.ledger.points):
                self.ledger.points.append(
                    Point(
                        text=text,
                        status=AGREED,
                        note="Established in an earlier debate",
                        first_round=0,
                        last_round=0,
                        from_memory=True,
                    )
                )
        if self.ledger.points:
            self._scored(0, None, skipped="")

    def _turn(
        self, speaker: Speaker, kind: str, turn: int, role: Role | str, system: str, number: int, heard=()
    ) -> Message | None:
        """None: nothing usable was said, and the round is assessed on what there is. This mode
        keeps its own point ledger: a turn said outright stays out of the position ledger."""
        return self.run.turn(
            TurnRequest(
                speaker,
                kind,
                phase=f"{self.name}_{kind}",
                context=self._instruction(kind, number, heard),
                turn=turn,
                aspect_index=number - 1,
                round=number,
                role=role,
                system_prefix=self._system(system, speaker),
                cache_ttl=self._cache_ttl(),
            )
        )

    def _cache_ttl(self) -> str:
        """A debate that pauses after each round waits for its owner, often past five minutes:
        its speakers' prefixes are cached for the hour (written once, not again every round)."""
        auto = Debate.objects.filter(pk=self.run.debate.pk, auto_continue=True).exists()
        return "5m" if auto else "1h"

    def _system(self, system: str, speaker: Speaker) -> str:
        """The role's contract, the persona's colour, the debate's context, then what it recalled
        from the owner's earlier debates (facts and insights, and the persona's own memories), the
        same bytes on every call of the role (its cached prefix)."""
        worldview = (speaker.persona.personality or "").strip()
        colour = "\n\n" + words.WORLDVIEW.format(name=speaker.name, worldview=worldview) if worldview else ""
        recalled = memory_section(self.run.debate, speaker.persona)
        prefix = with_context(system + colour, self.run.debate)
        return f"{prefix}\n\n{recalled}" if recalled else prefix

    def _instruction(self, kind: str, number: int, heard=()) -> str:
        question = words.QUESTION.format(topic=self.run.debate.topic)
        guidance = interjections_guidance(list(heard))
        if kind == Message.Kind.ANALYSIS and number == 1:
            parts = [question, self._ledger_section(), guidance, words.FIRST_ROUND]
            return "\n\n".join(part for part in parts if part)
        parts = [question, self.transcript(), self._ledger_section(), guidance]
        if kind == Message.Kind.ANALYSIS:
            parts.append(words.REFINE.format(number=number))
        elif kind == Message.Kind.CRITIQUE:
            parts.append(words.EVALUATE.format(number=number))
        else:
            parts.append(words.WRITE_SYNTHESIS)
        return "\n\n".join(part for part in parts if part)

    def _score(self, number: int, critique: Message | None) -> None:
        """The round's assessment folded into the ledger, and its score recorded. A Critic turn
        that said nothing usable gets none: nothing is read from an empty evaluation."""
        self.run.check_stop()
        analysis = self.run.main_messages([Message.Kind.ANALYSIS]).filter(turn=2 * number - 1).first()
        section = assessment_section(critique.text) if critique is not None else ""
        assessment = self._assess(number, analysis, section or critique.text) if critique is not None else None
        refused: list[str] = []
        if assessment is not None:
            refused = self.ledger.fold(
                assessment,
                number,
                analyst_text=analysis.text if analysis else "",
                earlier_analyst_texts=self._earlier_answers(number),
            )
        self.rounds_done = number
        self.last_assessed = assessment is not None
        self.reached_consensus = verdict(self._evidence()) == CONSENSUS
        skipped = "" if assessment is not None else CRITIC_SILENT if critique is None else UNREADABLE
        self._scored(number, assessment, skipped=skipped, refused=refused, whole=critique is not None and not section)

    def _earlier_answers(self, number: int) -> list[str]:
        earlier = self.run.main_messages([Message.Kind.ANALYSIS]).filter(turn__lt=2 * number - 1)
        return list(earlier.values_list("text", flat=True))

    def _scored(
        self,
        number: int,
        assessment: AgreementAssessment | None,
        *,
        skipped: str,
        refused: list[str] = (),
        whole: bool = False,
    ) -> None:
        payload = p.RoundScored(
            round=number,
            score=self.ledger.score,
            consensus=self.reached_consensus,
            assessed=assessment is not None,
            level=assessment.overall if assessment is not None else "",
            agreed=len(self.ledger.with_status(AGREED)),
            contested=len(self.ledger.with_status(CONTESTED)),
            unverifiable=len(self.ledger.with_status(UNVERIFIABLE)),
            points=[p.LedgerPoint(**point) for point in self.ledger.as_dicts()],
            skipped=skipped if number else "",
            refused=list(refused),
            whole_evaluation=whole and assessment is not None,
        )
        with transaction.atomic():
            event_append(debate_id=self.run.debate.id, payload=payload)
        logger.info("Debate %s: round %s scored %s", self.run.debate.id, number, payload.score)

    def _assess(self, number: int, analysis: Message | None, assessed: str) -> AgreementAssessment | None:
        """One structured call reads the round: the open points by id, the Analyst's answer and the
        Critic's Agreement Assessment (``assessed``: the section, or its whole evaluation when it
        wrote none), as transcript lines. One source: the Critic's own assessment."""
        turns = (2 * number - 1, 2 * number)
        transcript = "\n".join(
            [
                said_line(turns[0], ROLE_NAMES[Message.Kind.ANALYSIS], analysis.text if analysis else ""),
                said_line(turns[1], ROLE_NAMES[Message.Kind.CRITIQUE], assessed),
            ]
        )
        content = words.ASSESSMENT_INPUT.format(
            topic=self.run.debate.topic,
            points=self._ledger_lines() or words.LEDGER_EMPTY,
            number=number,
            transcript=transcript,
        )
        prompt = Prompt(
            **side_work_prompt(words.ASSESSOR_SYSTEM, self.run.debate),
            messages=[{"role": "user", "content": content}],
            max_tokens=2000,
            temperature=0.1,
        )
        return gateway.extract_or_skip(
            role=CRITIC,
            prompt=prompt,
            schema=AgreementAssessment,
            tag=CallTag(
                debate_id=self.run.debate.id,
                persona=self.critic.persona.persona_id,
                phase="assessment",
                round=number,
                turns=turns,
                items=tuple(self._point_ids()),
            ),
            what=f"Agreement assessment of round {number} of debate {self.run.debate.id}",
            # An outage is waited out and the round assessed again (run.py), not scored unassessed.
            skip_outages=False,
        )

    # ── synthesis ─────────────────────────────────────────────────────────────────────────────

    def _synthesis(self) -> None:
        self.run.phase("synthesis")
        turn = 2 * self.rounds_done + 1
        heard = self._interjections(turn, self.rounds_done)  # posted after the last round began
        synthesis = self._turn(
            self.analyst,
            Message.Kind.SYNTHESIS,
            turn,
            Role.SYNTHESIS,
            words.SYNTHESIS_SYSTEM,
            self.rounds_done + 1,
            heard,
        )
        # Whoever they were addressed to, nobody speaks after the synthesis: it answers all it heard.
        interjections_answer_in(
            interjections=heard, message=synthesis, persona=self.analyst.persona, default=True, last_word=True
        )

    # ── what each turn reads ──────────────────────────────────────────────────────────────────

    def transcript(self) -> str:
        """The debate so far: past SUMMARISE_AFTER messages, the last KEEP_IN_FULL word for word and
        the older ones condensed (orchestration.modes.analyst_critic.consensus.condensed_summary)."""
        messages = list(
            self.run.main_messages([Message.Kind.ANALYSIS, Message.Kind.CRITIQUE])
            .filter(status=Message.Status.COMPLETE)
            .order_by("turn")
        )
        older: list[Message] = []
        if len(messages) > SUMMARISE_AFTER:
            older, messages = messages[:-KEEP_IN_FULL], messages[-KEEP_IN_FULL:]
        full = "\n".join(said_line(m.turn, _role(m), _shown(m)) for m in messages)
        if not older:
            return words.SO_FAR.format(transcript=full) if full else ""
        return words.EARLIER_AND_LATEST.format(summary=self.condensed(older), transcript=full)

    def condensed(self, older: list[Message]) -> str:
        return condensed_summary(self.ledger, [said_line(m.turn, _role(m), _first_sentence(m.text)) for m in older])

    def _ledger_section(self) -> str:
        lines = self._ledger_lines()
        return words.LEDGER.format(points=lines) if lines else ""

    def _point_ids(self) -> list[str]:
        """The ids the open points go by in prompts (P1 is the ledger's first point, for good)."""
        return [self.ledger.point_id(index) for index in self.ledger.open_indices()]

    def _ledger_lines(self) -> str:
        """The points still held, one item line each, ``[P1] (status; notes) text``; a closed point
        (refined, withdrawn, negated) is only named by the one that replaced it."""
        lines = []
        for index in self.ledger.open_indices():
            point = self.ledger.points[index]
            tags = [point.status]
            if point.from_memory:
                tags.append(words.FROM_MEMORY)
            if point.challenges:
                tags.append(words.CHALLENGED.format(round=point.challenges[-1].round))
            if point.supersedes is not None:
                tags.append(words.REPLACES.format(point=self.ledger.point_id(point.supersedes)))
            lines.append(item_line(self.ledger.point_id(index), f"({'; '.join(tags)}) {point.text}"))
        return "\n".join(lines)

    def _last_scored(self) -> p.RoundScored | None:
        event = Event.objects.filter(debate=self.run.debate, kind=EventKind.ROUND_SCORED).order_by("-seq").first()
        return p.parse_payload(event.kind, event.payload) if event else None

    # ── results ───────────────────────────────────────────────────────────────────────────────

    def _evidence(self) -> Evidence:
        """The ledger's counts and whether each role's final answer is recorded, for the verdict."""
        # The last round's two turns, finished (a turn the guards emptied is withdrawn, never
        # shown as a placeholder, so it is not among them).
        last = (2 * self.rounds_done - 1, 2 * self.rounds_done)
        said = set(
            self.run.main_messages()
            .filter(turn__in=last, status=Message.Status.COMPLETE)
            .values_list("turn", flat=True)
        )
        return analyst_critic_evidence(
            agreed=len(self.ledger.with_status(AGREED)),
            contested=len(self.ledger.with_status(CONTESTED)),
            unverifiable=len(self.ledger.with_status(UNVERIFIABLE)),
            analyst_recorded=last[0] in said,
            critic_recorded=last[1] in said and self.last_assessed,
        )

    def results(self, status: str) -> dict:
        if status != "completed":
            outcome = "stopped"
        else:
            outcome = "consensus" if self.reached_consensus else "max_rounds"
        synthesis = self.run.main_messages([Message.Kind.SYNTHESIS]).filter(status=Message.Status.COMPLETE).first()
        evidence = self._evidence()
        return {
            "mode": self.name,
            "status": outcome,
            "regime": verdict(evidence),
            "regime_basis": evidence.basis,
            "score": self.ledger.score,
            "rounds": self.rounds_done,
            "agreed": [point.text for point in self.ledger.with_status(AGREED)],
            "contested": [point.text for point in self.ledger.with_status(CONTESTED)],
            "unverifiable": [point.text for point in self.ledger.with_status(UNVERIFIABLE)],
            "refined": [point.text for point in self.ledger.with_status(REFINED)],
            "withdrawn": [point.text for point in self.ledger.with_status(WITHDRAWN)],
            "negated": [point.text for point in self.ledger.with_status(NEGATED)],
            "superseded": [point.text for point in self.ledger.with_status(SUPERSEDED)],  # ledgers stored before
            "points": self.ledger.as_dicts(),
            "synthesis": synthesis.text if synthesis else "",
            "models": {"analyst": gateway.model_for(ANALYST), "critic": gateway.model_for(CRITIC)},
        }


def _shown(message: Message) -> str:
    """A message as the next turns read it: a Critic's evaluation without its Agreement
    Assessment section (consensus.without_section)."""
    return without_section(message.text) if message.kind == Message.Kind.CRITIQUE else message.text


def _role(message: Message) -> str:
    """The name a message goes by in a transcript line: its role's."""
    return ROLE_NAMES.get(message.kind, message.kind)


def _first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s+", text.strip(), maxsplit=1)[0]
    return sentence[:300]
