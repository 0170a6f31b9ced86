"""assemble_context: the tailored view of the blackboard one persona gets for one turn.

Structured sections, not a transcript dump (seeds/debate-memory-architecture.md): the debate's
state, where everyone else stands, your own position (with the challenges you still owe and what
you conceded), open disputes, the recent exchange verbatim and the key insights, each under a token
budget, with variants per phase. A reply's and a crux-room turn's context come in blocks the provider caches (Epoch,
TurnContext; the order is orchestration/prompts.py's). Agents never see the raw blackboard, only this. A persona built
from its own corpus also gets the passages of it relevant to the exchange (orchestration/citing.py,
within settings.FAULTLINE_CORPUS_TOKENS more).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crux.models import CruxCard, DisagreementCandidate
from crux.services.rooms import room_dispute_id
from debates.blackboard.ledger_text import is_degenerate, usable
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection
from debates.blackboard.summaries import latest_summary
from debates.budget import Section, clip, estimate_tokens, join
from debates.models import Debate, Message
from debates.services.context import context_section
from debates.turns import turn_kind
from gateways.llm.prompt_lines import item_line, said_line
from memory.context import memory_section
from orchestration import prompts as words
from orchestration.citing import own_writing_section
from orchestration.prompts import persona_system_prefix
from orchestration.recalling import EARLIER_TOKENS, earlier_section

RECENT_MESSAGES = 8
# A turn's context is sent in blocks so that most of it is read from the provider's prompt cache
# (see Epoch): the blackboard as of an anchor message, then the exchange since the anchor, one
# message a block, then what changes every turn. The exchange grows up to EXCHANGE tokens (or
# EXCHANGE_MESSAGES messages) before the anchor moves on; a moved anchor keeps at most what the
# recent exchange showed, so a context with nothing cached yet stays within LIMIT.
EXCHANGE = 900
EXCHANGE_MESSAGES = 16
LIMIT = 1500
OPEN_CLAIMS = 4  # open disputes a context lists
MESSAGE_TOKENS = 110
# Token budgets per section. A reply's or key argument's blackboard is 110+90+310+260 = 770 at
# most, what changes every turn 150+160+110+100 = 520 (TAIL): a new anchor keeps of the exchange
# at most what is left of 1,500 (and no more than RECENT), so a call with nothing cached after the
# system prefix sends at most 1,500; later calls send the exchange grown up to EXCHANGE, all of
# it but their new messages read from the cache. Closing 110+90+310+300+150+200+120+110+100 = 1,490;
# a crux room's frame 110+80+380+200+200 = 970, and 180 for the related earlier cards, then its
# messages since the room's anchor (ROOM_KEPT to ROOM_KEPT + ROOM_STEP - 1, 110 tokens each at most)
# and the turn's 100: all read from the cache but what is new since the speaker's last turn.
STATE, SO_FAR, OTHERS, MINE, MINE_CLOSING, DISPUTES, RECENT, RECENT_CLOSING, CONCESSIONS, INSIGHTS = (
    110,
    90,
    310,
    260,
    300,
    150,
    370,
    120,
    200,
    110,
)
TURN = 100
# What changes every turn, last: open disputes, what the turn recalls, insights, the turn itself
# (the passages of a persona's own writing come on top, as before: see the module's docstring).
TAIL = DISPUTES + EARLIER_TOKENS + INSIGHTS + TURN


def stable_prefix(debate: Debate, persona) -> str:
    """What a persona reads first on every call of a debate, identical bytes each time so the
    provider caches it: who they are, then the debate's context (its owner's project, assignment or
    repository; see debates/services/context.py) as its own section, within its token budget;
    then what the owner's earlier debates left (established facts, past insights; memory/context.py),
    recalled once before the first turn."""
    parts = (persona_system_prefix(persona), context_section(debate), memory_section(debate, persona))
    return "\n\n".join(part for part in parts if part)


def _positions(debate: Debate) -> dict[int, PositionState]:
    return {state.persona_id: state for state in PositionState.objects.filter(debate=debate)}


@dataclass(frozen=True)
class Seating:
    """Who takes part, in seat order: persona pk -> name, and -> persona id (the handle a
    participant's line in a prompt and a call's tag name it by)."""

    names: dict[int, str]
    handles: dict[int, str]

    @classmethod
    def of(cls, debate: Debate) -> Seating:
        rows = debate.participants.order_by("seat").values_list("persona_id", "persona__name", "persona__persona_id")
        rows = list(rows)
        return cls({pk: name for pk, name, _ in rows}, {pk: handle for pk, _, handle in rows})


def _debate_state(debate: Debate, persona, seating: Seating, aspect_index, phase) -> Section:
    section = Section(words.STATE_TITLE, STATE)
    section.add(words.STATE_TOPIC.format(topic=debate.topic), max_line_tokens=70)
    if debate.decided_on and debate.decided_on != debate.topic:  # what the verdict asks each of them
        section.add(words.STATE_DECIDED_ON.format(question=debate.decided_on), max_line_tokens=90)
    if phase == "opening" and debate.aspects:
        section.add(
            words.STATE_ASPECTS_TO_COME.format(aspects="; ".join(a["label"] for a in debate.aspects)),
            max_line_tokens=40,
        )
    elif aspect_index is not None and debate.aspects:
        aspect = debate.aspects[aspect_index]
        section.add(
            words.STATE_ASPECT.format(
                number=aspect_index + 1,
                count=len(debate.aspects),
                label=aspect["label"],
                description=aspect["description"],
            ),
            max_line_tokens=60,
        )
    # The participants as item lines (orchestration/prompts.py), one each, in seat order.
    section.add(words.STATE_PARTICIPANTS)
    for pk, name in seating.names.items():
        section.add(item_line(seating.handles[pk], f"{name} (you)" if pk == persona.id else name))
    return section


def _so_far(debate: Debate, budget=SO_FAR) -> Section:
    """Decisions everyone accepted, open proposals with the reactions so far, then the newest
    rolling summary (every ~12 messages; the last round's summary before the first one)."""
    section = Section(words.SO_FAR_TITLE, budget)
    notes = BlackboardNotes.objects.filter(debate=debate).first()
    if notes is None:
        return section
    for decision in notes.decisions[-2:]:
        section.add(words.SO_FAR_AGREED.format(decision=decision), max_line_tokens=30)
    open_ = [p for p in notes.proposals if p.get("status", "active") == "active"]
    for proposal in open_[-2:]:
        reactions = "; ".join(f"{name} {reaction}" for name, reaction in proposal["reactions"].items())
        section.add(
            words.SO_FAR_PROPOSAL.format(by=proposal["by"], proposal=proposal["proposal"])
            + (words.SO_FAR_REACTIONS.format(reactions=reactions) if reactions else ""),
            max_line_tokens=40,
        )
    if summary := latest_summary(notes):
        section.add(words.SO_FAR_SUMMARY.format(summary=summary), max_line_tokens=60)
    elif notes.rolling_summary:
        section.add(
            words.SO_FAR_EARLIER_ROUNDS.format(summary=notes.rolling_summary.rsplit("\n", 1)[-1]), max_line_tokens=40
        )
    return section


def _stance_lines(state: PositionState | None, aspect_index) -> list[str]:
    if state is None:
        return []
    lines = []
    if stance := usable(state.overall_stance):
        lines.append(stance)
    aspect = state.aspect_positions.get(str(aspect_index)) if aspect_index is not None else None
    if aspect and (position := usable(aspect.get("position"))):
        lines.append(words.OTHERS_ON_ASPECT.format(position=position))
    return lines


def _fit(items) -> list[str]:
    """The ledger entries fit to go into a prompt (a degenerate one is left out, see ledger_text)."""
    return [item for item in items if not is_degenerate(item)]


def _everyone_else(persona, names, positions, aspect_index, budget=OTHERS) -> Section:
    section = Section(words.OTHERS_TITLE, budget)
    mine = positions.get(persona.id)
    for persona_id, name in names.items():
        if persona_id == persona.id:
            continue
        state = positions.get(persona_id)
        stance = " ".join(_stance_lines(state, aspect_index)) or words.OTHERS_NO_POSITION
        section.add(f"{name}: {stance}", max_line_tokens=70)
        if state and (evidence := _fit(state.evidence)):
            section.add(words.OTHERS_CITED.format(evidence="; ".join(evidence[-2:])), max_line_tokens=35)
        if state and (owed := _fit(state.unanswered_challenges)):
            section.add(words.OTHERS_OWE.format(challenges="; ".join(owed[-2:])), max_line_tokens=45)
        if mine:
            agree = [a["on"] for a in mine.agreements if a["with"] == persona_id]
            agree += [a["on"] for a in (state.agreements if state else []) if a["with"] == persona.id]
            differ = [d["on"] for d in mine.disagreements if d["with"] == persona_id]
            differ += [d["on"] for d in (state.disagreements if state else []) if d["with"] == persona.id]
            agree, differ = _fit(agree), _fit(differ)
            if agree:
                section.add(words.OTHERS_AGREE.format(points="; ".join(dict.fromkeys(agree))), max_line_tokens=30)
            if differ:
                section.add(words.OTHERS_DIFFER.format(points="; ".join(dict.fromkeys(differ))), max_line_tokens=30)
    return section


@dataclass(frozen=True)
class _PositionWords:
    """How a position section is worded: the speaker's own, or the one across a crux room."""

    title: str
    argued: str
    conceded: str
    moved: str
    owed: str
    evidence: str


def _own_position_words() -> _PositionWords:
    return _PositionWords(
        words.MINE_TITLE, words.MINE_ARGUED, words.MINE_CONCEDED, words.MINE_MOVED, words.MINE_OWED, words.MINE_EVIDENCE
    )


def _their_position_words(name: str) -> _PositionWords:
    return _PositionWords(
        words.THEIRS_TITLE.format(name=name.upper()),
        words.THEIRS_ARGUED,
        words.THEIRS_CONCEDED,
        words.THEIRS_MOVED,
        words.THEIRS_OWED,
        words.THEIRS_EVIDENCE,
    )


def _your_position(
    state: PositionState | None, aspect_index, *, budget=MINE, full=False, wording: _PositionWords | None = None
) -> Section:
    wording = wording or _own_position_words()
    section = Section(wording.title, budget)
    if state is None:
        return section
    if stance := usable(state.overall_stance):
        section.add(wording.argued.format(stance=stance), max_line_tokens=60)
    if concessions := _fit(state.concessions):
        section.add(wording.conceded.format(concessions="; ".join(concessions)), max_line_tokens=None if full else 80)
    if full and (shifts := _fit(state.shifts)):
        section.add(wording.moved.format(shifts="; ".join(shifts)), max_line_tokens=80)
    if challenges := _fit(state.unanswered_challenges):
        section.add(wording.owed.format(challenges="; ".join(challenges[-4:])), max_line_tokens=90)
    if evidence := _fit(state.evidence):
        section.add(wording.evidence.format(evidence="; ".join(evidence[-5:])), max_line_tokens=70)
    return section


@dataclass(frozen=True)
class SideWork:
    """What the side lanes (detection, crux rooms, reflections) wrote that a turn's context shows
    and turn-taking weighs: the run loop reads it before it waits for the ledger, the ledger's own
    sections after."""

    cards: list[CruxCard]
    candidates: list[DisagreementCandidate]  # every tracked dispute, any status, most confident first
    insights: list[Reflection]

    @property
    def claims(self) -> list[DisagreementCandidate]:
        """The open disputes the context lists: active or in a crux room, the four most confident."""
        open_ = (DisagreementCandidate.Status.ACTIVE, DisagreementCandidate.Status.IN_CRUX_ROOM)
        return [c for c in self.candidates if c.status in open_][:OPEN_CLAIMS]

    def stakes(self) -> dict[int, float]:
        """How much each persona has riding on the disputes it is in (the sum of their confidence)."""
        stakes: dict[int, float] = {}
        for candidate in self.candidates:
            for persona_id in (candidate.persona_a_id, candidate.persona_b_id):
                stakes[persona_id] = stakes.get(persona_id, 0.0) + candidate.confidence
        return stakes

    def disputes(self) -> tuple:
        """What the OPEN DISPUTES section shows of detection and the crux rooms' work."""
        return (
            tuple((card.id, card.question, repr(card.positions)) for card in self.cards),
            tuple((c.id, c.dispute, c.persona_a_id, c.persona_b_id, c.status) for c in self.claims),
        )


def side_work_read(debate: Debate) -> SideWork:
    """Three queries: the crux cards, the disputes (the context's open ones and turn-taking's
    stakes come from the same rows), the insights."""
    return SideWork(
        cards=list(CruxCard.objects.filter(debate=debate).order_by("-created_at")[:3]),
        candidates=list(
            DisagreementCandidate.objects.filter(debate=debate, consecutive_windows__gte=1)
            .only("id", "dispute", "persona_a_id", "persona_b_id", "confidence", "status")
            .order_by("-confidence", "id")
        ),
        insights=list(Reflection.objects.filter(debate=debate).order_by("-importance", "-created_at")[:3]),
    )


@dataclass(frozen=True)
class TurnReads:
    """What a main-channel turn's context shows that does not depend on the position ledger: the
    side lanes' work and the passages of the speaker's own writing. The run loop reads it while
    the ledger update it waits for may still run."""

    side: SideWork
    own_writing: Section
    # What earlier in the debate is relevant now (orchestration/recalling.py), when the turn asked
    # for it beside these reads; None: assemble_context recalls it itself.
    earlier: Callable[[], Section] | None = None
    # The persona's view at its previous main-channel call (Epoch), kept if it still holds.
    view: Epoch | None = None


def turn_reads(
    *,
    debate: Debate,
    persona,
    phase: str,
    aspect_index,
    recent: list[Message],
    side: SideWork | None = None,
    earlier: Callable[[], Section] | None = None,
    view: Epoch | None = None,
) -> TurnReads:
    """recent: as for assemble_context. side: when the caller read it already (for the stakes).
    earlier: the turn's recall, asked for already (InDebateRecall.ask). view: the persona's view
    at its previous call (TurnContext.epoch)."""
    return TurnReads(
        earlier=earlier,
        view=view,
        side=side if side is not None else side_work_read(debate),
        own_writing=_own_writing(
            debate, persona, aspect_index=aspect_index, exchange=_exchange(phase, aspect_index, recent)
        ),
    )


def _open_disputes(side: SideWork, names, budget=DISPUTES) -> Section:
    section = Section(words.DISPUTES_TITLE, budget)
    for card in side.cards:
        stances = ", ".join(f"{p['name']}: {p['position']}" for p in card.positions.values())
        section.add(words.DISPUTES_CARD.format(question=card.question, stances=stances), max_line_tokens=45)
    for claim in side.claims:
        section.add(
            words.DISPUTES_CLAIM.format(
                dispute=claim.dispute,
                a=names.get(claim.persona_a_id),
                b=names.get(claim.persona_b_id),
                status=claim.get_status_display(),
            ),
            max_line_tokens=40,
        )
    return section


def _transcript_section(title: str, messages: list[Message], budget: int) -> Section:
    section = Section(title, budget)
    for message in reversed(messages):  # newest first, so the budget drops the oldest
        if not section.add(_said_line(message), max_line_tokens=MESSAGE_TOKENS):
            break
    section.lines.reverse()
    return section


def _recent(debate: Debate, *, room=None, limit: int | None = RECENT_MESSAGES) -> list[Message]:
    messages = Message.objects.filter(debate=debate, room=room, status=Message.Status.COMPLETE)
    if limit is None:
        return list(messages.select_related("persona").order_by("turn"))
    return list(reversed(messages.select_related("persona").order_by("-turn")[:limit]))


def _concessions(names, positions, budget=CONCESSIONS) -> Section:
    section = Section(words.CONCESSIONS_TITLE, budget)
    for persona_id, name in names.items():
        state = positions.get(persona_id)
        for concession in _fit(state.concessions) if state else []:
            section.add(f"• {name}: {concession}", max_line_tokens=50)
    return section


def _insights(side: SideWork, budget=INSIGHTS) -> Section:
    section = Section(words.INSIGHTS_TITLE, budget)
    for reflection in side.insights:
        section.add(f"• {reflection.content}", max_line_tokens=45)
    return section


def _own_writing(debate: Debate, persona, *, aspect_index=None, room=None, exchange: list[Message] = ()) -> Section:
    """Passages of the persona's own corpus relevant to the current exchange: the topic, the aspect
    or the room's question, and the last two things said (empty for a persona without a corpus)."""
    parts = [debate.topic]
    if room is not None:
        parts.append(room.question)
    elif aspect_index is not None and debate.aspects:
        aspect = debate.aspects[aspect_index]
        parts.append(f"{aspect['label']}: {aspect['description']}")
    parts += [message.text for message in list(exchange)[-2:]]
    return own_writing_section(debate=debate, persona=persona, query="\n".join(parts))


def _your_turn(kind: str, addressee: str, question: str = "") -> Section:
    section = Section(words.TURN_TITLE, TURN)
    section.add(turn_kind(kind).instruction.format(addressee=addressee or words.TURN_OTHERS, question=question))
    return section


def before_your_turn(context: str, section: str) -> str:
    """``section`` placed just before the turn's instructions (the last thing a speaker reads)."""
    before, header, instruction = context.rpartition(Section(words.TURN_TITLE, 0).header)
    return f"{before}{section}\n\n{header}{instruction}" if header else f"{context}\n\n{section}"


@dataclass(frozen=True)
class Epoch:
    """A persona's view of the main channel between two moves of its anchor. Its blackboard block
    (the ledger's sections, rendered once, when the anchor was set) and the exchange since the
    anchor (which only grows) stay byte-identical from one of its calls to the next, so each call
    reads from the prompt cache everything up to where its previous call ended. The anchor moves
    at a new aspect, or when the exchange since it passes EXCHANGE, keeping the last messages; it
    is never set past a message the ledger has not folded (``Message.ledgered``), so what leaves
    the exchange is in the ledger's sections of the new blackboard."""

    aspect_index: int | None
    anchor: int  # the turn of the first message the exchange shows: every later one follows it
    blackboard: str


@dataclass(frozen=True)
class TurnContext:
    """A turn's context in the blocks it is sent in. ``lead``: the blackboard, then the exchange
    since the anchor one message a block (empty for a context sent whole: openings, closings);
    ``tail``: what changes every turn; ``epoch``: the view the lead belongs to."""

    lead: tuple[str, ...]
    tail: str
    epoch: Epoch | None = None

    @property
    def text(self) -> str:
        return "".join(self.lead) + self.tail


def assemble_context(**kwargs) -> str:
    """A main-channel turn's context as one text (turn_context's, with a new anchor)."""
    return turn_context(**kwargs).text


def turn_context(
    *,
    debate: Debate,
    persona,
    phase: str,
    aspect_index: int | None = None,
    addressee: str = "",
    seating: Seating | None = None,
    recent: list[Message] | None = None,
    reads: TurnReads | None = None,
) -> TurnContext:
    """A main-channel turn's context. phase: opening | key_argument | reply | closing (the turn's kind).
    seating: the participants, when the caller already has them.
    recent: the main channel's last complete messages in turn order (at least EXCHANGE_MESSAGES,
    persona attached), when the caller holds them: the run loop's include the turn just said,
    which may not be written yet. reads: what does not depend on the ledger, when the caller read it
    already (turn_reads), with the persona's view at its previous call (``TurnReads.view``)."""
    seating = seating if seating is not None else Seating.of(debate)
    names = seating.names
    if phase == "opening":  # a deliberate cold start: topic, aspects, who else is here
        sections = [_debate_state(debate, persona, seating, None, phase), _own_writing(debate, persona)]
        return TurnContext((), join([*sections, _your_turn(phase, addressee)]))
    if recent is None:
        recent = _recent(debate, limit=EXCHANGE_MESSAGES)
    if reads is None:
        reads = turn_reads(
            debate=debate, persona=persona, phase=phase, aspect_index=aspect_index, recent=recent[-RECENT_MESSAGES:]
        )
    if phase == "closing":
        return TurnContext((), _closing(debate, persona, seating, aspect_index, recent, reads, addressee))

    epoch = reads.view
    if not _holds(epoch, aspect_index, recent):
        epoch = _new_epoch(debate, persona, seating, phase, aspect_index, recent)
    since = [message for message in recent if message.turn >= epoch.anchor]
    lead = (epoch.blackboard, *_said(since))
    tail = join(
        [
            _open_disputes(reads.side, names),
            _earlier(debate, phase, aspect_index, recent[-RECENT_MESSAGES:], reads),
            _insights(reads.side),
            reads.own_writing,
            _your_turn(phase, addressee),
        ]
    )
    return TurnContext(lead, ("\n" if since else "") + tail, epoch)


def _closing(debate, persona, seating: Seating, aspect_index, recent, reads, addressee) -> str:
    """A closing reads the whole ledger, every concession and the last three messages, sent whole
    (each persona closes once: there is no later call of its to cache it for)."""
    positions = _positions(debate)
    names = seating.names
    sections = [
        _debate_state(debate, persona, seating, aspect_index, "closing"),
        _so_far(debate),
        _everyone_else(persona, names, positions, aspect_index),
        _your_position(positions.get(persona.id), aspect_index, budget=MINE_CLOSING, full=True),
        _open_disputes(reads.side, names),
        _concessions(names, positions),
        _transcript_section(words.EXCHANGE_TITLE, _exchange("closing", aspect_index, recent), RECENT_CLOSING),
        _insights(reads.side),
        reads.own_writing,
        _your_turn("closing", addressee),
    ]
    return join(sections)


def _blackboard(debate: Debate, persona, seating: Seating, aspect_index, phase) -> str:
    """The ledger's sections of a turn's context, as they are now: the slowly changing block."""
    positions = _positions(debate)
    sections = [
        _debate_state(debate, persona, seating, aspect_index, phase),
        _so_far(debate),
        _everyone_else(persona, seating.names, positions, aspect_index),
        _your_position(positions.get(persona.id), aspect_index),
    ]
    return join(sections) + "\n\n"


def _said_line(message: Message) -> str:
    """A message as a transcript line (orchestration/prompts.py: the one form a prompt shows one in)."""
    return said_line(message.turn, message.persona.name, message.text)


def _said(messages: list[Message], title: str | None = None) -> list[str]:
    """The exchange, one block a message (the first under the section's title: the recent
    exchange's unless given); a message is clipped as the recent exchange always clipped it."""
    lines = [clip(_said_line(message), MESSAGE_TOKENS) + "\n" for message in messages]
    if lines:
        lines[0] = Section(title or words.EXCHANGE_TITLE, 0).header + "\n" + lines[0]
    return lines


def _holds(epoch: Epoch | None, aspect_index, recent: list[Message]) -> bool:
    """Whether a persona's view still holds: same aspect, the anchor still among ``recent``, and
    the exchange since it within EXCHANGE."""
    if epoch is None or epoch.aspect_index != aspect_index:
        return False
    if recent and recent[0].turn > epoch.anchor:
        return False
    since = [message for message in recent if message.turn >= epoch.anchor]
    return len(since) <= EXCHANGE_MESSAGES and estimate_tokens("".join(_said(since))) <= EXCHANGE


def _new_epoch(debate: Debate, persona, seating: Seating, phase, aspect_index, recent: list[Message]) -> Epoch:
    """A new anchor: the blackboard as the ledger has it now, and the newest messages the recent
    exchange would show within what is left of LIMIT (a key argument: only those on its aspect),
    and back to the first message the ledger has not folded yet."""
    blackboard = _blackboard(debate, persona, seating, aspect_index, phase)
    budget = min(RECENT, LIMIT - estimate_tokens(blackboard) - TAIL)
    shown = _exchange(phase, aspect_index, recent)
    kept: list[Message] = []
    for message in reversed(shown):
        if estimate_tokens("".join(_said([message, *kept]))) > budget:
            break
        kept.insert(0, message)
    anchor = kept[0].turn if kept else (recent[-1].turn + 1 if recent else 1)
    unfolded = _first_unledgered(debate, [m for m in recent if m.turn < anchor])
    if unfolded is not None:
        # Kept, even past the budget (the run loop waits for all but the last message's update,
        # so it is rare), up to EXCHANGE: beyond, they would be lost either way.
        since = [message for message in recent if message.turn >= unfolded]
        if estimate_tokens("".join(_said(since))) <= EXCHANGE:
            anchor = unfolded
    return Epoch(aspect_index=aspect_index, anchor=anchor, blackboard=blackboard)


def _first_unledgered(debate: Debate, messages: list[Message]) -> int | None:
    """The turn of the first of ``messages`` the position ledger has not folded (or not written)."""
    if not messages:
        return None
    folded = set(
        Message.objects.filter(
            debate=debate, room__isnull=True, ledgered=True, turn__in=[m.turn for m in messages]
        ).values_list("turn", flat=True)
    )
    return next((message.turn for message in messages if message.turn not in folded), None)


# A crux room's turns, sent in blocks the provider caches (see room_turn_context): the room's frame,
# then the room's messages from an anchor on, one a block. The anchor is a function of the messages
# said (every ROOM_STEP messages, keeping at least ROOM_KEPT), not of what a run remembers, so both
# personas' calls, and a resumed run's, fall on the same blocks.
ROOM_STEP = 6
ROOM_KEPT = 3
TRIGGERS = 380  # what was said that led to the room, in its frame


def room_turn_context(
    *, debate: Debate, persona, phase: str, room, other, seating: Seating, bridge: Section | None = None
) -> TurnContext:
    """A crux-room turn's context. phase: entry | exchange. other: the persona across the room.
    bridge: the earlier crux cards related to the room's question (orchestration/recalling.py).

    ``lead``: the room's frame (the question, what led here, both positions, the related cards),
    rendered the same on every turn while the positions stay the same, then the room's messages
    since its anchor, one a block (only ever appended to until the anchor moves); ``tail``: the
    passages of the persona's own writing and the turn. So an exchange reads from the cache what
    its speaker's previous turn in the room sent."""
    positions = _positions(debate)
    mine = positions.get(persona.id)
    triggers = list(Message.objects.filter(id__in=room.trigger_message_ids).select_related("persona").order_by("turn"))
    theirs = _your_position(positions.get(other.id), None, budget=200, wording=_their_position_words(other.name))
    # The room's question is the dispute it opened on, as an item line: [its number] question.
    room_frame = Section(words.ROOM_TITLE, 80)
    room_frame.add(words.ROOM_FRAME.format(other=other.name), max_line_tokens=20)
    room_frame.add(item_line(room_dispute_id(room), room.question), max_line_tokens=50)
    sections = [
        _debate_state(debate, persona, seating, None, phase),
        room_frame,
        _transcript_section(words.ROOM_TRIGGERS_TITLE, triggers, TRIGGERS),
        _your_position(mine, None, budget=200),
        theirs,
    ]
    if bridge is not None:
        sections.append(bridge)
    frame = join(sections) + "\n\n"
    said = _recent(debate, room=room, limit=None) if phase == "exchange" else []
    shown = said[_room_anchor(len(said)) :]
    exchange = said if phase == "exchange" else triggers
    tail = join(
        [_own_writing(debate, persona, room=room, exchange=exchange), _your_turn(phase, other.name, room.question)]
    )
    return TurnContext((frame, *_said(shown, title=words.ROOM_EXCHANGE_TITLE)), ("\n" if shown else "") + tail)


def _room_anchor(said: int) -> int:
    """Where a room's shown messages start when ``said`` have been said: moved on every ROOM_STEP
    messages, keeping at least ROOM_KEPT (so between ROOM_KEPT and ROOM_KEPT + ROOM_STEP - 1 shown)."""
    return max(0, (said - ROOM_KEPT) // ROOM_STEP * ROOM_STEP)


def _earlier(debate: Debate, phase: str, aspect_index, recent: list[Message], reads: TurnReads) -> Section:
    """What the turn recalls of the debate's earlier turns: none for a closing (it reads the whole
    ledger); what it takes of the budget comes off the recent exchange's."""
    if phase == "closing":
        return Section("", 0)
    if reads.earlier is not None:
        return reads.earlier()
    return earlier_section(debate=debate, aspect_index=aspect_index, recent=recent[-RECENT_MESSAGES:])


def _recent_limit(phase: str) -> int:
    return 3 if phase == "closing" else RECENT_MESSAGES


def _exchange(phase: str, aspect_index, recent: list[Message]) -> list[Message]:
    """The RECENT EXCHANGE a turn shows (and its own-writing passages are matched to)."""
    recent = recent[-_recent_limit(phase) :]
    if phase == "key_argument":  # first take on a new aspect: only what was said on it so far
        recent = [m for m in recent if m.aspect_index == aspect_index]
    return recent
