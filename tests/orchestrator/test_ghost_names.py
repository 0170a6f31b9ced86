"""No ghost in any ledger (issue 39): every structured call that names a participant or a proposal
is shown them as item lines (``[persona-id] Name``, ``[X1] Name: proposal``) and answers by id; an
id or name that is nobody's (an unknown id, a misspelling, "Shoul d", "Trade r", "Do") is dropped
and logged, never stored. The position ledger's digests, the evidence ledger, the disagreement
scan and the crux card, each answered here as a careless but honest reader would."""

import pytest

from crux.models import CruxRoom, DisagreementCandidate
from crux.services.detection import detection_run
from crux.services.rooms import card_extract
from debates.blackboard.ledger import ledger_digest
from debates.blackboard.models import BlackboardNotes, PositionState
from debates.models import Message
from devtools.fake_messages_api import Reply, user_text
from devtools.prompt_reading import read_lines
from orchestration.results import evidence_ledger

pytestmark = pytest.mark.django_db(transaction=True)


def _said(debate, seat, turn, text):
    participant = debate.participants.get(seat=seat)
    return Message.objects.create(
        debate=debate, persona=participant.persona, turn=turn, text=text, status=Message.Status.COMPLETE
    )


def _people(debate):
    return [participant.persona for participant in debate.participants.order_by("seat")]


def _fold(*messages):
    return ledger_digest(
        messages=list(
            Message.objects.select_related("debate", "persona").filter(pk__in=[m.pk for m in messages]).order_by("turn")
        )
    )


def _every_name_stored(debate) -> set[str]:
    """Each persona a position ledger points at, by name (challenges owed are on their holder)."""
    names = {p.pk: p.name for p in _people(debate)}
    found = set()
    for state in PositionState.objects.filter(debate=debate):
        found.add(names.get(state.persona_id, f"?{state.persona_id}"))
        for item in state.agreements + state.disagreements:
            found.add(names.get(item["with"], f"?{item['with']}"))
    return found


def test_a_digest_answering_by_id_lands_on_participants_and_its_ghosts_nowhere(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = _people(debate)
    fake_anthropic.script(
        Reply.json(
            {
                "updates": [
                    {
                        "turn": 1,
                        "speaker": ada.persona_id,
                        "challenges_raised": [  # three at most
                            {"to": bram.persona_id, "challenge": "Show gold beating bonds after 1980."},
                            {"to": "Shoul d", "challenge": "Should the state hold gold?"},
                            {"to": "Ada Hardmony", "challenge": "Answer yourself."},
                        ],
                        "new_disagreement": {"with": "Trade r", "on": "real rates", "intensity": "strong"},
                    },
                    {
                        "turn": 2,
                        "speaker": bram.persona_id,
                        "new_agreement": {"with": f"[{cleo.persona_id}]", "on": "real rates decide it"},
                    },
                    {"turn": 2, "speaker": "Do", "new_agreement": {"with": "dmitri-gold", "on": "made up"}},
                    # A ghost for the right turn's speaker: nobody's update.
                    {"turn": 3, "speaker": "Shoul d", "overall_stance": "Should the state hold gold?"},
                ]
            }
        )
    )
    said = [
        _said(debate, 0, 1, "Gold held its value through the 1970s; Bram, show me bonds doing that."),
        _said(debate, 1, 2, "Real rates decide it, as Cleo says."),
        _said(debate, 2, 3, "Should the state hold gold at all? I doubt it."),
    ]
    assert _fold(*said)

    states = {state.persona_id: state for state in PositionState.objects.filter(debate=debate)}
    owed = [c for aspect in states[bram.pk].aspect_positions.values() for c in aspect.get("challenged", [])]
    assert owed == ["Show gold beating bonds after 1980."]
    assert states[ada.pk].disagreements == []
    assert [a["with"] for a in states[bram.pk].agreements] == [cleo.pk]
    assert not states.get(cleo.pk) or not states[cleo.pk].overall_stance
    assert _every_name_stored(debate) <= {ada.name, bram.name, cleo.name}
    # The digest was shown who takes part by id, and answers by them.
    _, items = read_lines(user_text(fake_anthropic.requests[-1]))
    assert {key: item.text for key, item in items.items() if key in {p.persona_id for p in (ada, bram, cleo)}} == {
        ada.persona_id: ada.name,
        bram.persona_id: bram.name,
        cleo.persona_id: cleo.name,
    }


def _update(turn, speaker, **update):
    return Reply.json({"updates": [{"turn": turn, "speaker": speaker, **update}]})


def test_a_reaction_to_a_proposal_is_tied_to_it_by_the_id_the_digest_was_shown(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = _people(debate)
    fake_anthropic.script(
        _update(1, bram.persona_id),
        _update(2, cleo.persona_id, proposal_reaction={"proposal": "X1", "reaction": "supports"}),
        _update(3, ada.persona_id, proposal_reaction={"proposal": "X7", "reaction": "supports"}),  # no such proposal
        _update(4, ada.persona_id, proposal_reaction={"proposal": "[X1]", "reaction": "supports"}),
    )
    _fold(_said(debate, 1, 1, "I propose a reserve tranche of gold, capped at five percent of reserves."))
    _fold(_said(debate, 2, 2, "Five percent in bullion at the central bank suits me fine."))
    _fold(_said(debate, 0, 3, "Yes, a small hoard like that is what I wanted."))
    notes = BlackboardNotes.objects.get(debate=debate)
    assert notes.proposals[0]["reactions"] == {cleo.name: "support"} and notes.decisions == []
    # The open proposal was shown as an item line, its id and its proposer's name.
    _, items = read_lines(user_text(fake_anthropic.requests[-1]))
    assert items["X1"].text.startswith(f"{bram.name}: ")

    _fold(_said(debate, 0, 4, "A small hoard like that is what I wanted all along."))
    notes.refresh_from_db()
    assert notes.proposals[0]["status"] == "accepted" and len(notes.decisions) == 1


def test_the_evidence_ledger_names_who_cited_it_by_id_and_keeps_no_ghost(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = _people(debate)
    _said(debate, 0, 1, "Gold held its value through the 1970s: look at the 1970s gold price data.")
    _said(debate, 1, 2, "Should the state borrow for it? Coates and Humphreys found no income gain in three decades.")
    _said(debate, 2, 3, "Do you know what real rates did after 1980? They crushed gold for twenty years.")
    entry = {"used_for": "their answer"}
    fake_anthropic.script(
        Reply.json(
            {
                "entries": [
                    {**entry, "persona": ada.persona_id, "evidence": "the 1970s gold price data"},
                    {**entry, "persona": "Shoul d", "evidence": "Coates and Humphreys, three decades"},
                    {**entry, "persona": "Do", "evidence": "real rates after 1980"},
                    {**entry, "persona": "Trade r", "evidence": "made up"},
                    {**entry, "persona": "ghost-7", "evidence": "made up too"},
                    {**entry, "persona": bram.name, "evidence": "Coates and Humphreys, three decades"},
                    {**entry, "persona": f"[{cleo.persona_id}]", "evidence": "real rates after 1980"},
                ]
            }
        )
    )

    ledger = evidence_ledger(debate=debate)

    assert [(e["persona"], e["evidence"]) for e in ledger] == [
        (ada.name, "the 1970s gold price data"),
        (bram.name, "Coates and Humphreys, three decades"),
        (cleo.name, "real rates after 1980"),
    ]
    request = fake_anthropic.requests[-1]
    _, items = read_lines(user_text(request))
    assert {ada.persona_id, bram.persona_id, cleo.persona_id} <= set(items)


def test_a_scan_names_the_pair_by_id_and_a_pair_with_a_ghost_is_no_dispute(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = _people(debate)
    said = [_said(debate, seat, seat + 1, f"Turn {seat + 1}: gold, rates and savers.") for seat in range(3)]
    found = [
        (ada.persona_id, bram.persona_id, "Is gold still money?"),
        (f"[{bram.persona_id}]", cleo.name, "Do real rates decide gold's price?"),
        (ada.persona_id, "Trade r", "Is the trader right?"),
        ("Shoul d", cleo.persona_id, "Should the state hold gold?"),
        ("dmitri-gold", ada.persona_id, "Is Dmitri right?"),
    ]
    fake_anthropic.script(
        Reply.json(
            {
                "disagreements": [
                    {"persona_a": a, "persona_b": b, "dispute": dispute, "known_id": None, "confidence": 0.9}
                    for a, b, dispute in found[:4]
                ]
            }
        )
    )
    detection_run(debate_id=debate.id, window=1, message_ids=[m.id for m in said])

    tracked = {(c.persona_a_id, c.persona_b_id, c.dispute) for c in DisagreementCandidate.objects.filter(debate=debate)}
    assert tracked == {
        (min(ada.pk, bram.pk), max(ada.pk, bram.pk), "Is gold still money?"),
        (min(bram.pk, cleo.pk), max(bram.pk, cleo.pk), "Do real rates decide gold's price?"),
    }


@pytest.mark.parametrize(
    "first, second, stored",
    [
        ("{a_id}", "{b_id}", {"a": "YES", "b": "NO"}),  # by id
        ("{b_id}", "{a_name}", {"a": "NO", "b": "YES"}),  # the model's order, by id or exact name
        ("{a_id}", "Trade r", {"a": "YES", "b": None}),  # a ghost's position is nobody's
        ("Ada Hardmony", "{b_id}", {"a": None, "b": "NO"}),  # misspelled: dropped, not guessed
    ],
)
def test_a_crux_cards_positions_are_named_by_id(fake_anthropic, new_debate, first, second, stored):
    debate = new_debate()
    ada, bram, _ = _people(debate)
    candidate = DisagreementCandidate.objects.create(
        debate=debate, persona_a=ada, persona_b=bram, dispute="Is gold still money?", confidence=0.9, last_window=1
    )
    room = CruxRoom.objects.create(
        debate=debate, candidate=candidate, persona_a=ada, persona_b=bram, question=candidate.dispute, suit="S"
    )
    Message.objects.create(
        debate=debate, room=room, persona=ada, turn=1, text="Gold is money.", status=Message.Status.COMPLETE
    )
    names = {"a_id": ada.persona_id, "b_id": bram.persona_id, "a_name": ada.name}
    fake_anthropic.script(
        Reply.json(
            {
                "question": "Is gold still money?",
                "positions": [
                    {
                        "persona": first.format(**names),
                        "position": "YES",
                        "reasoning": "It held.",
                        "falsifier": "A decade of losses.",
                    },
                    {
                        "persona": second.format(**names),
                        "position": "NO",
                        "reasoning": "Rates.",
                        "falsifier": "Negative rates.",
                    },
                ],
                "disagreement_type": "evidence",
                "diagnosis": "They read the record differently.",
                "resolved": False,
                "resolution": "",
            }
        )
    )

    card = card_extract(room)

    held = {str(ada.pk): "a", str(bram.pk): "b"}
    said = {held[key]: value["position"] for key, value in card.positions.items() if value.get("reasoning")}
    assert said == {seat: side for seat, side in stored.items() if side}
    assert {value["name"] for value in card.positions.values()} <= {ada.name, bram.name}
