"""The Collaborate mode (seeds/dual-ai-debate.md, "Dual-AI Collaboration"): two roles, each on its
own model, work on one brief in parallel, not in turns, and a synthesis writes one artifact.

1. Drafts: the Architect (seat 0) and the Reviewer (seat 1) answer the brief at the same time, two
   model calls streaming side by side.
2. Cross-pollination: each sees the other's first answer and revises its own, again in parallel.
3. Artifact: the synthesis model merges the two revised answers into one Markdown document.

Their personas' worldviews only colour the roles. Each output is a message: begun (its event)
before the first token, finished (its event) when written, so a run that follows a dead one reads
which are done and says again only what was cut off; finished phases are never repeated. A role
that writes nothing, or whose model fails (other than an outage, which is waited out and tried
again), is recorded as such (``Message.unanswered``, the text left empty: no placeholder speaks for
it), its column says so, and the collaboration goes on; an artifact that cannot be written is stood in for by the
two revised answers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from debates.models import Message
from debates.modes import mode_spec
from debates.regime import collaborate_evidence, verdict
from debates.services.context import with_context
from debates.services.interjections import interjections_answer_in, interjections_guidance
from debates.turns import turn_kind
from gateways.llm import gateway
from gateways.llm.prompt_lines import said_line
from gateways.llm.types import ModelError, ModelUnavailable, Role
from memory.context import memory_section
from orchestration.interjecting import interjections_for_round, interjections_read_at
from orchestration.modes.base import Mode
from orchestration.modes.collaborate import prompts as words
from orchestration.modes.collaborate.artifact import (
    artifact_fallback,
    artifact_markdown,
    artifact_title,
    open_questions,
)
from orchestration.speaking import Speaker, TurnRequest

logger = logging.getLogger(__name__)

# Its model roles: its spec row (debates/modes.py) registers them with their default models.
ARCHITECT, REVIEWER = "architect", "reviewer"

# Main-channel turn numbers: the drafts, the revisions, the artifact.
DRAFT_TURNS = (1, 2)
REVISION_TURNS = (3, 4)
ARTIFACT_TURN = 5


@dataclass(frozen=True)
class CollaborationRole:
    name: str
    model_role: str
    system: str
    speaker: Speaker


class CollaborateMode(Mode):
    name = "collaborate"
    lanes = {"collaborate": 2}  # the two roles' calls, side by side

    def __init__(self, run) -> None:
        super().__init__(run)
        if len(run.speakers) < 2:
            raise ValueError("a collaboration needs two participants (Architect, Reviewer)")
        architect, reviewer = mode_spec(self.name).seats  # the roles' names are its spec row's
        self.roles = [
            CollaborationRole(architect.name, ARCHITECT, words.ARCHITECT_SYSTEM, run.speakers[0]),
            CollaborationRole(reviewer.name, REVIEWER, words.REVIEWER_SYSTEM, run.speakers[1]),
        ]

    def phases(self):
        return [self._drafts, self._revisions, self._artifact]

    # ── the two parallel phases ───────────────────────────────────────────────────────────────

    def _drafts(self) -> None:
        self._side_by_side("drafting", Message.Kind.DRAFT, DRAFT_TURNS)

    def _revisions(self) -> None:
        # Its rounds: the drafts, then the revisions; the artifact follows the last without a pause.
        if len(self._finished(REVISION_TURNS)) < len(REVISION_TURNS):
            self.run.round_ended(1)
        self._side_by_side("revising", Message.Kind.REVISION, REVISION_TURNS)

    def _side_by_side(self, phase: str, kind: str, turns: tuple[int, int]) -> None:
        """Both roles' outputs of one phase at once, each on a lane thread; returns when both are
        written. An outage in either is raised once both have ended (the run waits it out, then
        says again only the one that did not finish)."""
        done = self._finished(turns)
        pending = [(role, turn) for role, turn in zip(self.roles, turns, strict=True) if turn not in done]
        if not pending:
            # A run that died after writing the phase's outputs may not have marked what they answered.
            self._answered(interjections_read_at(debate=self.run.debate, turn=turns[0]), turns)
            return
        self.run.check_stop()
        self.run.phase(phase)
        # The owner's interjections since the last phase are the guidance this one follows (both
        # roles read them; the one addressed, else the Architect, answers).
        heard = self._interjections(turns[0])
        requests = [
            TurnRequest(
                role.speaker,
                kind,
                phase=f"{self.name}_{kind}",
                context=self._with_guidance(self._instruction(role, kind), heard),
                turn=turn,
                round=1 if kind == Message.Kind.DRAFT else 2,
                role=role.model_role,
                system_prefix=self._system(role),
                long_form=True,
            )
            for role, turn in pending
        ]
        self.run.turns_side_by_side("collaborate", requests, failed=self._unanswered)
        self._answered(heard, turns)

    def _interjections(self, turn: int):
        return interjections_for_round(debate=self.run.debate, turn=turn, default_persona=self.roles[0].speaker.persona)

    @staticmethod
    def _with_guidance(instruction: str, heard) -> str:
        guidance = interjections_guidance(list(heard))
        return f"{instruction}\n\n{guidance}" if guidance else instruction

    def _answered(self, heard, turns: tuple[int, ...]) -> None:
        """Each role's output of the phase answers the interjections addressed to it; the first
        role's answers the others."""
        if not heard:
            return
        outputs = {m.turn: m for m in self.run.main_messages().filter(turn__in=turns, status=Message.Status.COMPLETE)}
        for index, (role, turn) in enumerate(zip(self.roles, turns, strict=False)):
            interjections_answer_in(
                interjections=heard, message=outputs.get(turn), persona=role.speaker.persona, default=index == 0
            )

    def _unanswered(self, request: TurnRequest, exc: ModelError) -> None:
        """A role's model failed (not an outage): the collaboration goes on without its output."""
        role = next(role for role in self.roles if role.speaker == request.speaker)
        logger.warning(
            "Debate %s: the %s's %s failed; it goes on without it: %s", self.run.debate.id, role.name, request.kind, exc
        )
        self.run.turn_unwritten(request, unanswered=Message.Unanswered.CALL_FAILED)

    # ── the artifact ──────────────────────────────────────────────────────────────────────────

    def _artifact(self) -> None:
        if ARTIFACT_TURN in self._finished((ARTIFACT_TURN,)):
            self._artifact_answered(interjections_read_at(debate=self.run.debate, turn=ARTIFACT_TURN))
            return
        self.run.check_stop()
        self.run.phase("artifact")
        writer = self.roles[0].speaker  # the row needs a persona; the page shows it as the artifact
        fallback = artifact_fallback(self.run.debate.topic, self._latest_answers())
        heard = self._interjections(ARTIFACT_TURN)
        request = TurnRequest(
            writer,
            Message.Kind.ARTIFACT,
            phase=f"{self.name}_artifact",
            context=self._with_guidance(self._artifact_instruction(), heard),
            turn=ARTIFACT_TURN,
            round=3,
            role=Role.SYNTHESIS,
            system_prefix=self._recalled(with_context(words.ARTIFACT_SYSTEM, self.run.debate)),
            long_form=True,
            clean=lambda text: artifact_markdown(text) or fallback,
        )
        try:
            self.run.turn(request)
        except ModelUnavailable:
            raise
        except ModelError as exc:
            logger.warning(
                "Debate %s: the artifact could not be written; the answers stand in: %s", self.run.debate.id, exc
            )
            self.run.turn_unwritten(request, text=fallback)
        self._artifact_answered(heard)

    def _artifact_answered(self, heard) -> None:
        if not heard:
            return
        artifact = self.run.main_messages().filter(turn=ARTIFACT_TURN, status=Message.Status.COMPLETE).first()
        for role in self.roles:  # the artifact is the whole collaboration's answer
            interjections_answer_in(interjections=heard, message=artifact, persona=role.speaker.persona, default=True)

    # ── what each call reads ──────────────────────────────────────────────────────────────────

    def _system(self, role: CollaborationRole) -> str:
        worldview = (role.speaker.persona.personality or "").strip()
        colour = "\n\n" + words.WORLDVIEW.format(name=role.speaker.name, worldview=worldview) if worldview else ""
        return self._recalled(with_context(role.system + colour, self.run.debate), role.speaker.persona)

    def _recalled(self, prefix: str, persona=None) -> str:
        """What the debate recalled from the owner's earlier debates (facts, insights, and the
        role persona's own memories) after the prompt's prefix, as in every mode's prompts."""
        recalled = memory_section(self.run.debate, persona)
        return f"{prefix}\n\n{recalled}" if recalled else prefix

    def _instruction(self, role: CollaborationRole, kind: str) -> str:
        brief = words.BRIEF.format(topic=self.run.debate.topic)
        ask = words.AS_ROLE.format(role=role.name, instruction=turn_kind(kind).instruction)
        if kind == Message.Kind.DRAFT:
            return f"{brief}\n\n{ask}"
        drafts = self._texts(DRAFT_TURNS)
        first = "\n".join(
            said_line(turn, r.name, drafts.get(r.speaker.seat) or words.WROTE_NOTHING)
            for r, turn in zip(self.roles, DRAFT_TURNS, strict=True)
        )
        return f"{brief}\n\n{words.FIRST_ANSWERS.format(role=role.name, transcript=first)}\n\n{ask}"

    def _artifact_instruction(self) -> str:
        drafts, revisions = self._texts(DRAFT_TURNS), self._texts(REVISION_TURNS)
        lines = []
        for role, draft_turn, revision_turn in zip(self.roles, DRAFT_TURNS, REVISION_TURNS, strict=True):
            seat = role.speaker.seat
            turn, text = (revision_turn, revisions[seat]) if revisions.get(seat) else (draft_turn, drafts.get(seat, ""))
            lines.append(said_line(turn, role.name, text or words.WROTE_NOTHING))
        answers = words.REVISED_ANSWERS.format(transcript="\n".join(lines))
        brief = words.BRIEF.format(topic=self.run.debate.topic)
        return f"{brief}\n\n{answers}\n\n{turn_kind(Message.Kind.ARTIFACT).instruction}"

    def _latest_answers(self) -> list[tuple[str, str]]:
        """Each role's revised answer (its first one where the revision has no text; "" where the
        role wrote nothing at all)."""
        drafts, revisions = self._texts(DRAFT_TURNS), self._texts(REVISION_TURNS)
        return [
            (role.name, revisions.get(role.speaker.seat) or drafts.get(role.speaker.seat, "")) for role in self.roles
        ]

    def _texts(self, turns: tuple[int, ...]) -> dict[int, str]:
        """seat -> text of the finished messages of ``turns`` (an unanswered one's is "")."""
        seats = {s.persona.id: s.seat for s in self.run.speakers}
        finished = self.run.main_messages().filter(turn__in=turns, status=Message.Status.COMPLETE)
        return {seats[m.persona_id]: m.text for m in finished}

    def _finished(self, turns: tuple[int, ...]) -> set[int]:
        finished = self.run.main_messages().filter(turn__in=turns, status=Message.Status.COMPLETE)
        return set(finished.values_list("turn", flat=True))

    # ── results ───────────────────────────────────────────────────────────────────────────────

    def results(self, status: str) -> dict:
        messages = {m.turn: m for m in self.run.main_messages().filter(status=Message.Status.COMPLETE)}
        artifact = messages.get(ARTIFACT_TURN)
        text = artifact.text if artifact else ""
        unanswered = [
            f"{role.name} {what}"
            for role in self.roles
            for what, turn in (
                ("first answer", DRAFT_TURNS[role.speaker.seat]),
                ("revision", REVISION_TURNS[role.speaker.seat]),
            )
            if turn in messages and messages[turn].unanswered
        ]
        synthesised = bool(text) and text != artifact_fallback(self.run.debate.topic, self._latest_answers())
        evidence = collaborate_evidence(
            answered={
                role.name: messages.get(REVISION_TURNS[role.speaker.seat]) is not None
                and f"{role.name} revision" not in unanswered
                for role in self.roles
            },
            artifact="synthesised" if synthesised else "stand-in" if text else "",
            open_questions=len(open_questions(text)) if synthesised else 0,
        )
        return {
            "mode": self.name,
            "status": "artifact" if artifact is not None and status == "completed" else "stopped",
            "regime": verdict(evidence),
            "regime_basis": evidence.basis,
            "title": artifact_title(text, self.run.debate.topic) if text else "",
            "artifact": text,
            "synthesised": synthesised,
            "unanswered": unanswered,
            "roles": {role.name.lower(): role.speaker.name for role in self.roles},
            "models": {
                "architect": gateway.model_for(ARCHITECT),
                "reviewer": gateway.model_for(REVIEWER),
                "synthesis": gateway.model_for(Role.SYNTHESIS),
            },
        }
