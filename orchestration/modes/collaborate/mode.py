"""The Collaborate mode (seeds/dual-ai-debate.md, "Dual-AI Collaboration"): two roles, each on its
own model, work on one brief in parallel, not in turns, and a synthesis writes one artifact.

1. Drafts: the Architect (seat 0) and the Reviewer (seat 1) answer the brief at the same time, two
   model calls streaming side by side.
2. Cross-pollination: each sees the other's first answer and revises its own, again in parallel.
3. Artifact: the synthesis model merges the two revised answers into one Markdown document.

The verdict compares the two revised answers, never the artifact's headings: after the drafts one
structured call lists the key decisions of each first answer (ids given here: D1, D2...) and the
yes/no question the brief decides; each revision is shown them, by id; while the artifact is
written, a second call reads, decision by decision and by id, whether the other role's revision
accepts it, and whether its own role still holds it (decisions.py checks every id). Every key
decision disputed is a split, all accepted a consensus (debates/regime.py).

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

from django.db import transaction

from debates import payloads as p
from debates.models import Event, Message
from debates.modes import mode_spec
from debates.question import decided_question, question_planned
from debates.regime import collaborate_evidence, verdict
from debates.services.context import with_context
from debates.services.events import event_append
from debates.services.interjections import interjections_answer_in, interjections_guidance
from debates.services.questions import question_decide
from debates.turns import turn_kind
from gateways.llm import gateway
from gateways.llm.prompt_lines import item_line, said_line
from gateways.llm.types import CallTag, ModelError, ModelUnavailable, Prompt, Role
from memory.context import memory_section
from orchestration.interjecting import interjections_for_round, interjections_read_at
from orchestration.modes.base import Mode
from orchestration.modes.collaborate import prompts as words
from orchestration.modes.collaborate.artifact import artifact_fallback, artifact_markdown, artifact_title
from orchestration.modes.collaborate.decisions import decision_outcomes, decisions_listed, revised_sides
from orchestration.modes.collaborate.schemas import DecisionReview, KeyDecisions
from orchestration.speaking import Speaker, TurnRequest
from orchestration.voice import quoted
from personas.house import forbidden_phrases_of

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
    lanes = {"collaborate": 2, "review": 1}  # the two roles' calls, side by side; the review beside the artifact

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
        return [self._drafts, self._decisions, self._revisions, self._artifact]

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
        listed = self._noted() if kind == Message.Kind.REVISION else None
        requests = [
            TurnRequest(
                role.speaker,
                kind,
                phase=f"{self.name}_{kind}",
                context=self._with_guidance(self._instruction(role, kind, listed), heard),
                turn=turn,
                round=1 if kind == Message.Kind.DRAFT else 2,
                items=tuple(d.id for d in listed.decisions) if listed else (),
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
            self._review()
            return
        self.run.check_stop()
        self.run.phase("artifact")
        self.run.lanes.submit("review", self._review)  # read while the artifact is written
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
            system_prefix=self._recalled(
                with_context(
                    words.ARTIFACT_SYSTEM + "\n\n" + words.NEVER_SAY.format(phrases=quoted(self._forbidden())),
                    self.run.debate,
                )
            ),
            long_form=True,
            clean=lambda text: artifact_markdown(text) or fallback,
            forbidden=tuple(self._forbidden()),  # it speaks for both roles
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
        self.run.lanes.wait("review")
        self._review()  # not done beside it (an outage there is waited out here): done now

    def _artifact_answered(self, heard) -> None:
        if not heard:
            return
        artifact = self.run.main_messages().filter(turn=ARTIFACT_TURN, status=Message.Status.COMPLETE).first()
        for role in self.roles:  # the artifact is the whole collaboration's answer
            interjections_answer_in(interjections=heard, message=artifact, persona=role.speaker.persona, default=True)

    # ── the verdict's two readings ────────────────────────────────────────────────────────────

    def _noted(self) -> p.DecisionsNoted | None:
        """The key decisions as last noted (listed after the drafts; with outcomes once reviewed)."""
        event = Event.objects.filter(debate=self.run.debate, kind=p.EventKind.DECISIONS_NOTED).order_by("-seq").first()
        return p.parse_payload(event.kind, event.payload) if event else None

    def _roles_by_turn(self, turns: tuple[int, ...]) -> dict[int, str]:
        return {turn: role.name for role, turn in zip(self.roles, turns, strict=True)}

    def _decisions(self) -> None:
        """The key decisions of the two first answers, with ids, and the question the brief
        decides: one structured call, once (a resumed run reads them from the log). A call that
        fails lists none: the revisions are then compared by nobody, and the verdict says so."""
        if self._noted() is not None:
            return
        self.run.check_stop()
        debate = self.run.debate
        prompt = Prompt(
            system_prefix=with_context(words.DECISIONS_READER, debate),
            messages=[
                {
                    "role": "user",
                    "content": words.DECISIONS_INPUT.format(
                        topic=debate.topic, transcript=self._transcript(DRAFT_TURNS)
                    ),
                }
            ],
            max_tokens=1200,
            temperature=0.1,
        )
        found = gateway.extract_or_skip(
            role=Role.EXTRACTION,
            prompt=prompt,
            schema=KeyDecisions,
            tag=CallTag(debate_id=debate.id, phase=f"{self.name}_decisions", turns=DRAFT_TURNS),
            what=f"Key decisions of {debate.id}",
        )
        planned = question_planned(
            topic=debate.topic,
            proposed=found.question if found else None,
            none_fits=bool(found and found.no_yes_no_question_fits),
        )
        listed = decisions_listed(found, self._roles_by_turn(DRAFT_TURNS))
        with transaction.atomic():
            question_decide(debate=debate, planned=planned)
            event_append(debate_id=debate.id, payload=p.DecisionsNoted(decisions=listed))

    def _review(self) -> None:
        """Whether each role's revision accepts the other's key decisions, read by id: once the
        revisions are written and the decisions listed (never again once reviewed). A revision
        that is missing leaves the verdict undetermined (collaborate_evidence), but the one there
        still says what it did with each decision (its rejection is a dispute on record)."""
        listed = self._noted()
        revisions = {seat: text for seat, text in self._texts(REVISION_TURNS).items() if text}
        if listed is None or listed.reviewed or not listed.decisions or not revisions:
            return
        debate = self.run.debate
        content = words.REVIEW_INPUT.format(
            topic=debate.topic,
            question=debate.decided_on or words.NO_QUESTION,
            items=_items(listed),
            transcript=self._transcript(REVISION_TURNS),
        )
        review = gateway.extract_or_skip(
            role=Role.EXTRACTION,
            prompt=Prompt(
                system_prefix=with_context(words.REVIEW_READER, debate),
                messages=[{"role": "user", "content": content}],
                max_tokens=1200,
                temperature=0.1,
            ),
            schema=DecisionReview,
            tag=CallTag(
                debate_id=debate.id,
                phase=f"{self.name}_review",
                turns=REVISION_TURNS,
                items=tuple(d.id for d in listed.decisions),
            ),
            what=f"Review of the key decisions of {debate.id}",
        )
        if review is None:
            return
        decisions = [d.model_dump() for d in listed.decisions]
        outcomes = decision_outcomes(decisions, review)
        event_append(
            debate_id=debate.id,
            payload=p.DecisionsNoted(
                decisions=[{**d, "outcome": outcome} for d, outcome in zip(decisions, outcomes, strict=True)],
                reviewed=True,
                sides=revised_sides(review, self._roles_by_turn(REVISION_TURNS)),
            ),
        )

    # ── what each call reads ──────────────────────────────────────────────────────────────────

    def _system(self, role: CollaborationRole) -> str:
        worldview = (role.speaker.persona.personality or "").strip()
        colour = "\n\n" + words.WORLDVIEW.format(name=role.speaker.name, worldview=worldview) if worldview else ""
        never = "\n\n" + words.NEVER_SAY.format(phrases=quoted(forbidden_phrases_of(role.speaker.persona)))
        return self._recalled(with_context(role.system + colour + never, self.run.debate), role.speaker.persona)

    def _recalled(self, prefix: str, persona=None) -> str:
        """What the debate recalled from the owner's earlier debates (facts, insights, and the
        role persona's own memories) after the prompt's prefix, as in every mode's prompts."""
        recalled = memory_section(self.run.debate, persona)
        return f"{prefix}\n\n{recalled}" if recalled else prefix

    def _instruction(self, role: CollaborationRole, kind: str, listed: p.DecisionsNoted | None = None) -> str:
        brief = words.BRIEF.format(topic=self.run.debate.topic)
        ask = words.AS_ROLE.format(role=role.name, instruction=turn_kind(kind).instruction)
        if kind == Message.Kind.DRAFT:
            return f"{brief}\n\n{ask}"
        first = self._transcript(DRAFT_TURNS)
        shown = f"\n\n{words.DECISIONS_SHOWN.format(items=_items(listed))}" if listed and listed.decisions else ""
        return f"{brief}\n\n{words.FIRST_ANSWERS.format(role=role.name, transcript=first)}{shown}\n\n{ask}"

    def _transcript(self, turns: tuple[int, ...]) -> str:
        """The outputs of ``turns`` (one per role, in seat order) as transcript lines."""
        texts = self._texts(turns)
        return "\n".join(
            said_line(turn, role.name, texts.get(role.speaker.seat) or words.WROTE_NOTHING)
            for role, turn in zip(self.roles, turns, strict=True)
        )

    def _forbidden(self) -> list[str]:
        """What no output of this collaboration may say: the house's phrases and each role's own."""
        phrases = [phrase for role in self.roles for phrase in forbidden_phrases_of(role.speaker.persona)]
        return list(dict.fromkeys(phrases))

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
        noted = self._noted()
        reviewed = noted is not None and noted.reviewed
        evidence = collaborate_evidence(
            answered={
                role.name: messages.get(REVISION_TURNS[role.speaker.seat]) is not None
                and f"{role.name} revision" not in unanswered
                for role in self.roles
            },
            artifact="synthesised" if synthesised else "stand-in" if text else "",
            decisions=[d.outcome for d in noted.decisions] if reviewed else None,
        )
        return {
            "mode": self.name,
            "status": "artifact" if artifact is not None and status == "completed" else "stopped",
            "regime": verdict(evidence),
            "regime_basis": evidence.basis,
            "decided_on": decided_question(self.run.debate),
            "decisions": [d.model_dump() for d in noted.decisions] if noted else [],
            "final_sides": dict(noted.sides) if reviewed else {},
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


def _items(listed: p.DecisionsNoted) -> str:
    """The key decisions as item lines: ``[D1] Architect: text``."""
    return "\n".join(item_line(d.id, f"{d.role}: {d.text}") for d in listed.decisions)
