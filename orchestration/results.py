"""The results of a debate: computed from its crux cards, plus one extraction for the evidence
ledger. Cruxes are what the rooms found, not what a final model call imagines."""

from __future__ import annotations

from crux.models import CruxCard
from debates.blackboard.models import PositionState
from debates.blackboard.updates import citation_evidence
from debates.models import Debate, Event, Message
from debates.regime import dialogue_evidence, verdict
from debates.services.context import side_work_prompt
from debates.services.transcripts import participant_lines, transcript_of
from debates.stance_history import stance_history
from gateways.llm import gateway
from gateways.llm.references import Participants
from gateways.llm.types import CallTag, Prompt, Role
from orchestration.prompts import EVIDENCE_EXTRACTOR, EVIDENCE_INPUT
from orchestration.schemas import EvidenceLedger

TRANSCRIPT_LIMIT_CHARS = 24_000


def evidence_ledger(*, debate: Debate) -> list[dict]:
    """Every piece of evidence cited in the main channel, by whom and for what (one extraction).
    The extraction is shown the participants as item lines and names who cited each piece by
    id; a piece it gives to anyone else (an unknown id, a misspelled name, a word of a sentence
    taken for a speaker) is dropped and logged (gateways/llm/references.py)."""
    messages = Message.objects.filter(debate=debate, room__isnull=True, status=Message.Status.COMPLETE)
    transcript = transcript_of(messages.select_related("persona").order_by("turn"))
    if not transcript:
        return []
    people = [p.persona for p in debate.participants.select_related("persona").order_by("seat")]
    content = EVIDENCE_INPUT.format(
        topic=debate.topic,
        participants=participant_lines(people),
        transcript=_last_lines(transcript, TRANSCRIPT_LIMIT_CHARS),
    )
    prompt = Prompt(
        **side_work_prompt(EVIDENCE_EXTRACTOR, debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=1500,
        temperature=0.1,
    )
    ledger = gateway.extract_or_skip(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=EvidenceLedger,
        tag=CallTag(debate_id=debate.id, phase="evidence_ledger", participants=tuple(p.persona_id for p in people)),
        what=f"Evidence ledger of {debate.id}",
    )
    participants = Participants.of((p.pk, p.persona_id, p.name) for p in people)
    extracted = []
    for entry in ledger.entries if ledger else []:
        name = participants.name(entry.persona, what=f"The evidence ledger of {debate.id}")
        if name is not None:
            extracted.append({**entry.model_dump(), "persona": name})
    return extracted + _cited_passages(messages)


def _last_lines(transcript: str, limit: int) -> str:
    """The end of ``transcript`` within ``limit`` characters, cut where a transcript line starts (a
    line cut in the middle would have no "[turn N] Name:" to say whose it is)."""
    if len(transcript) <= limit:
        return transcript
    tail = transcript[-limit:]
    start = tail.find("\n[turn ")
    return tail[start + 1 :] if start >= 0 else tail


def _cited_passages(messages) -> list[dict]:
    """The passages of their own writing the personas cited: recorded facts, not extracted."""
    return [
        {"persona": message.persona.name, "evidence": citation_evidence(citation), "used_for": "quoted in their turn"}
        for message in messages.exclude(citations=[]).select_related("persona").order_by("turn")
        for citation in message.citations
    ]


def seats_of(debate: Debate) -> list[tuple[int, str, int]]:
    """(persona id, name, seat) of each participant, in seat order."""
    return list(debate.participants.order_by("seat").values_list("persona_id", "persona__name", "seat"))


def final_sides(*, debate: Debate, seats: list[tuple[int, str, int]] | None = None) -> dict[str, str]:
    """Each participant's last recorded answer to the debate's question, in seat order ("" if never
    recorded): what the regime checks before it may say "consensus". ``seats``: seats_of(debate),
    when the caller has read it."""
    sides = dict(PositionState.objects.filter(debate=debate).values_list("persona_id", "topic_side"))
    return {name: sides.get(persona_id, "") for persona_id, name, _ in seats or seats_of(debate)}


def stance_series(*, debate: Debate, seats: list[tuple[int, str, int]] | None = None) -> dict:
    """How each persona's answer moved, one step per main-channel message, for the stance charts:
    {"personas": [{"id", "name", "seat"}], "steps": [[side of each persona, in seat order], ...]}."""
    seats = seats or seats_of(debate)
    events = Event.objects.filter(debate=debate).order_by("seq").values_list("kind", "payload")
    steps = stance_history(events, [persona_id for persona_id, _, _ in seats])
    return {
        "personas": [{"id": persona_id, "name": name, "seat": seat} for persona_id, name, seat in seats],
        "steps": [[step[persona_id] for persona_id, _, _ in seats] for step in steps],
    }


def debate_results(*, debate: Debate, evidence_ledger: list[dict]) -> dict:
    cards = list(CruxCard.objects.filter(debate=debate).select_related("room").order_by("created_at"))
    cruxes, fault_lines, flip_conditions, resolution_paths = [], [], [], []
    for card in cards:
        positions = list(card.positions.values())
        cruxes.append(
            {
                "question": card.question,
                "disagreement_type": card.disagreement_type,
                "diagnosis": card.diagnosis,
                "resolved": card.resolved,
                "resolution": card.resolution,
                "suit": card.room.suit,
            }
        )
        fault_lines.append(
            {
                "question": card.question,
                "sides": {
                    side: [p["name"] for p in positions if p["position"] == side] for side in ("YES", "NO", "NUANCED")
                },
            }
        )
        flip_conditions += [
            {"persona": p["name"], "question": card.question, "falsifier": p["falsifier"]}
            for p in positions
            if p.get("falsifier")
        ]
        if card.resolved and card.resolution:
            resolution_paths.append({"question": card.question, "path": card.resolution, "resolved": True})
        else:
            settle = "; ".join(f"{p['name']} would move if {p['falsifier']}" for p in positions if p.get("falsifier"))
            resolution_paths.append({"question": card.question, "path": settle or card.diagnosis, "resolved": False})
    card_sides = [
        {"positions": [p["position"] for p in card.positions.values()], "resolved": card.resolved} for card in cards
    ]
    seats = seats_of(debate)
    sides = final_sides(debate=debate, seats=seats)
    evidence = dialogue_evidence(card_sides, sides)
    return {
        "regime": verdict(evidence),
        "regime_basis": evidence.basis,
        "final_sides": sides,
        "stances": stance_series(debate=debate, seats=seats),
        "cruxes": cruxes,
        "fault_lines": fault_lines,
        "flip_conditions": flip_conditions,
        "resolution_paths": resolution_paths,
        "evidence_ledger": evidence_ledger,
    }
