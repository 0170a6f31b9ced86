"""Crystallization: read the main-channel turns since the last one, ask the crystallizer for graph
mutations, apply those the map's rules admit (logging each rejection), and persist the new map as
a graph_updated event. Returns why the map has converged, or ""."""

from __future__ import annotations

import logging

from django.db import transaction

from crux.graph.dispute_graph import DisputeGraph
from crux.graph.models import DisputeGraphState
from crux.graph.nodes import Transcript
from crux.graph.outcome import convergence_reason, graph_outcome
from crux.graph.prompts import (
    CRYSTALLIZER,
    CRYSTALLIZER_EARLIER,
    CRYSTALLIZER_INTERJECTION,
    CRYSTALLIZER_INTERJECTION_SOURCE,
    CRYSTALLIZER_INTERJECTION_TO,
    CRYSTALLIZER_INTERJECTIONS,
    CRYSTALLIZER_MAP,
    CRYSTALLIZER_NEW,
    CRYSTALLIZER_PARTICIPANTS,
    CRYSTALLIZER_TOPIC,
    map_for_crystallizer,
)
from crux.graph.schemas import Crystallization
from debates.models import Debate, Interjection, Message
from debates.payloads import GraphUpdated
from debates.services.context import side_work_prompt
from debates.services.events import event_append
from debates.services.messages import debate_totals
from debates.services.transcripts import participant_lines
from gateways.llm import gateway
from gateways.llm.prompt_lines import said_line
from gateways.llm.types import CallTag, Prompt, Role

logger = logging.getLogger(__name__)

CONTEXT_TURNS = 3  # turns already read, shown again so the new ones make sense
TURN_CHARS = 1200


def graph_state_for(*, debate: Debate) -> DisputeGraphState:
    state, _ = DisputeGraphState.objects.get_or_create(debate=debate)
    return state


def _people(debate: Debate) -> list:
    return [p.persona for p in debate.participants.select_related("persona").order_by("seat")]


def _turn_line(message: Message) -> str:
    return said_line(message.turn, message.persona.name, " ".join(message.text.split())[:TURN_CHARS])


def _interjection_line(interjection: Interjection) -> str:
    text = " ".join(interjection.text.split())[:TURN_CHARS]
    to = CRYSTALLIZER_INTERJECTION_TO.format(name=interjection.to_persona.name) if interjection.to_persona_id else ""
    source = (
        CRYSTALLIZER_INTERJECTION_SOURCE.format(source=interjection.link or interjection.document_title)
        if interjection.link or interjection.document_title
        else ""
    )
    return CRYSTALLIZER_INTERJECTION.format(
        turn=interjection.read_at_turn, kind=interjection.kind, to=to, text=text, source=source
    )


def _prompt(
    debate: Debate, people: list, graph: DisputeGraph, labels: dict, earlier, window, interjections=()
) -> Prompt:
    parts = [
        CRYSTALLIZER_TOPIC.format(topic=debate.topic),
        CRYSTALLIZER_PARTICIPANTS.format(participants=participant_lines(people)),
        CRYSTALLIZER_MAP.format(map=map_for_crystallizer(graph, labels)),
    ]
    if earlier:
        parts.append(CRYSTALLIZER_EARLIER.format(transcript="\n".join(_turn_line(m) for m in earlier)))
    parts.append(CRYSTALLIZER_NEW.format(transcript="\n".join(_turn_line(m) for m in window)))
    if interjections:
        # The owner is no participant and holds no stance; what they raise is mapped like any move
        # (a question as an issue, evidence as a reason for or against a position).
        parts.append(CRYSTALLIZER_INTERJECTIONS.format(lines="\n".join(_interjection_line(i) for i in interjections)))
    return Prompt(
        **side_work_prompt(CRYSTALLIZER, debate),
        messages=[{"role": "user", "content": "\n\n".join(parts)}],
        max_tokens=2500,
        temperature=0.2,
    )


def _interjections(debate: Debate, window: list[Message]) -> list[Interjection]:
    turns = [m.turn for m in window]
    return list(
        Interjection.objects.filter(debate=debate, read_at_turn__gte=min(turns), read_at_turn__lte=max(turns))
        .select_related("to_persona")
        .order_by("read_at_turn", "seq")
    )


def graph_crystallize(*, debate: Debate, through_turn: int, max_rounds: int, final: bool = False) -> str:
    """Crystallize the main-channel turns after the last crystallized one, up to ``through_turn``.

    A failed window is not lost: the next crystallization starts where the last successful one
    ended. final: the closing round; it updates the map but no longer judges convergence.
    """
    state = graph_state_for(debate=debate)
    first = state.crystallized_through + 1
    messages = list(
        Message.objects.filter(debate=debate, room__isnull=True, status=Message.Status.COMPLETE, turn__lte=through_turn)
        .select_related("persona")
        .order_by("turn")
    )
    window = [m for m in messages if m.turn >= first]
    if not window:
        return state.converged
    earlier = [m for m in messages if m.turn < first][-CONTEXT_TURNS:]
    people = _people(debate)
    participants = [persona.name for persona in people]
    graph = DisputeGraph.from_dict(state.graph)

    round_no = len(state.rounds)
    draft = gateway.extract(
        role=Role.SYNTHESIS,
        prompt=_prompt(debate, people, graph, graph.labels(), earlier, window, _interjections(debate, window)),
        schema=Crystallization,
        tag=CallTag(
            debate_id=debate.id,
            phase="crystallization",
            round=round_no + 1,
            turns=tuple(m.turn for m in window),
            participants=tuple(persona.persona_id for persona in people),
        ),
    )
    transcript = Transcript(
        participants=tuple(participants),
        speakers={m.turn: m.persona.name for m in messages},
        ids={persona.persona_id: persona.name for persona in people},
    )
    batch = graph.apply_batch(draft.mutations(), transcript, round_no=round_no)
    for rejected in batch.rejected:
        logger.info(
            "Debate %s, crystallization %s: rejected %s (%s): %s",
            debate.id,
            round_no,
            rejected["op"],
            rejected["summary"],
            rejected["reason"],
        )

    outcome = graph_outcome(graph, participants)
    speakers = {m.turn: m.persona.name for m in window}
    moves = {
        tag.turn: {"turn": tag.turn, "persona": speakers[tag.turn], "move": tag.move}
        for tag in draft.moves
        if tag.turn in speakers
    }
    rounds = [
        *state.rounds,
        {
            "round": round_no,
            "turns": [first, through_turn],
            "labels": outcome.labels,
            "new_attacks": len(batch.new_attacks),
            "applied": len(batch.applied),
            "rejected": len(batch.rejected),
            "final": final,
        },
    ]
    converged = state.converged or ("" if final else convergence_reason(rounds, max_rounds=max_rounds))
    payload = GraphUpdated(
        round=round_no,
        turns=[first, through_turn],
        final=final,
        moves=[moves[turn] for turn in sorted(moves)],
        applied=batch.applied,
        rejected=batch.rejected,
        removed=batch.removed,
        new_attacks=batch.new_attacks,
        graph=graph.to_dict(),
        labels=outcome.labels,
        counts=outcome.counts,
        camps=outcome.camps,
        common_ground=outcome.common_ground,
        disputes=outcome.disputes,
        regime=outcome.regime,
        converged=converged,
        totals=debate_totals(debate.id),
    )
    with transaction.atomic():
        DisputeGraphState.objects.filter(pk=state.pk).update(
            graph=graph.to_dict(), rounds=rounds, crystallized_through=through_turn, converged=converged
        )
        event_append(debate_id=debate.id, payload=payload)
    return converged
