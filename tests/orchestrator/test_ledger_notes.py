"""A ledger update (one message's, in a digest) counts into the debate's notes: its epistemic score, the messages ledgered, and
the proposals, reactions and decisions its message carries."""

import json
import re

import pytest
from django.db import connection

from debates.blackboard.ledger import ledger_digest
from debates.blackboard.models import BlackboardNotes
from debates.models import Message
from devtools.fake_messages_api import Reply, user_text

pytestmark = pytest.mark.django_db(transaction=True)


def _said(debate, seat, turn, text):
    participant = debate.participants.get(seat=seat)
    return Message.objects.create(
        debate=debate, persona=participant.persona, turn=turn, text=text, status=Message.Status.COMPLETE
    )


def _update(turn, speaker, **update):
    """The digest's answer for one message: its update, keyed by the message's turn and speaker."""
    return Reply.json({"updates": [{"turn": turn, "speaker": speaker, **update}]})


def _fold(message):
    queries = []

    def record(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        assert ledger_digest(messages=[Message.objects.select_related("debate", "persona").get(pk=message.pk)])
    return [sql for sql in queries if '"debates_blackboardnotes"' in sql]


def test_counters_proposals_reactions_and_decisions_all_land_in_the_notes(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = (p.persona.name for p in debate.participants.order_by("seat"))
    fake_anthropic.script(
        _update(1, cleo),
        _update(2, ada, concession="Gold is volatile.", shift="Less sure of a full standard."),
        _update(3, bram, proposal="A gold-backed reserve tranche."),
        _update(4, cleo, proposal_reaction={"proposal": "X1", "reaction": "supports"}),
        _update(5, ada, decision="Inflation erodes savings."),
        _update(6, bram),
    )

    _fold(_said(debate, 2, 1, "Hello."))  # the first update creates the notes
    # Counters alone: one UPDATE adds to them (besides the prompt's read of the open proposals).
    notes_sql = _fold(_said(debate, 0, 2, "I concede gold is volatile; I am less sure of a full standard."))
    assert [sql.split()[0] for sql in notes_sql] == ["SELECT", "UPDATE"], notes_sql
    notes = BlackboardNotes.objects.get(debate=debate)
    assert (notes.epistemic_score, notes.messages_ledgered) == (4 + 5, 2)

    _fold(_said(debate, 1, 3, "I propose a gold-backed reserve tranche."))
    _fold(_said(debate, 2, 4, "I support Bram's tranche."))
    _fold(_said(debate, 0, 5, "We all accept inflation erodes savings."))
    _fold(_said(debate, 1, 6, "Nothing new."))

    notes.refresh_from_db()
    assert (notes.epistemic_score, notes.messages_ledgered) == (9, 6)
    # The proposal and Cleo's support are read from their words; the model's "decision" is not
    # taken on its word: nobody but Cleo accepted anything, so no decision was reached.
    assert notes.proposals == [
        {
            "id": 1,
            "by": bram,
            "proposal": "A gold-backed reserve tranche.",
            "turn": 3,
            "status": "active",
            "reactions": {cleo: "support"},
        }
    ]
    assert notes.decisions == []
    assert ada not in notes.proposals[0]["reactions"]


def test_the_first_update_of_a_debate_without_notes_creates_them(fake_anthropic, new_debate):
    debate = new_debate()
    BlackboardNotes.objects.filter(debate=debate).delete()
    ada = debate.participants.get(seat=0).persona.name
    fake_anthropic.script(_update(1, ada, shift="Now open to a hybrid."))

    _fold(_said(debate, 0, 1, "I am now open to a hybrid."))

    notes = BlackboardNotes.objects.get(debate=debate)
    assert (notes.epistemic_score, notes.messages_ledgered) == (5, 1)


def test_a_digest_folds_each_message_it_was_asked_about_and_nothing_the_model_made_up(fake_anthropic, new_debate):
    debate = new_debate()
    ada, bram, cleo = (p.persona.name for p in debate.participants.order_by("seat"))
    said = [
        _said(debate, 0, 1, "Gold held its value through the 1970s."),
        _said(debate, 1, 2, "I concede the 1970s, but not the decades since."),
        _said(debate, 2, 3, "Both of you ignore real rates."),
    ]
    fake_anthropic.script(
        Reply.json(
            {
                "updates": [
                    {"turn": 1, "speaker": ada, "overall_stance": "Gold is a hedge.", "importance": 7},
                    # Bram's concession credited to Cleo, and a turn nobody was asked about: dropped.
                    {"turn": 2, "speaker": cleo, "concession": "the 1970s"},
                    {"turn": 4, "speaker": bram, "shift": "now doubts everything"},
                    {"turn": 3, "speaker": "Dmitri Gold", "overall_stance": "An outsider's view."},
                ]
            }
        )
    )

    messages = list(Message.objects.select_related("debate", "persona").filter(pk__in=[m.pk for m in said]))
    assert ledger_digest(messages=sorted(messages, key=lambda m: m.turn))

    stances = dict(debate.positions.values_list("persona__name", "overall_stance"))
    assert stances.get(ada) == "Gold is a hedge." and not stances.get(cleo)
    assert not debate.positions.exclude(concessions=[]).exists() and not debate.positions.exclude(shifts=[]).exists()
    # Every message is folded once (those without a usable update as changing nothing).
    assert list(Message.objects.filter(debate=debate).order_by("turn").values_list("ledgered", "importance")) == [
        (True, 7),
        (True, 5),
        (True, 5),
    ]
    assert BlackboardNotes.objects.get(debate=debate).messages_ledgered == 3


@pytest.mark.original_prompts  # reads the digest's prompt as worded
def test_a_digest_shows_what_a_speakers_state_holds_and_leaves_out_what_is_empty(fake_anthropic, new_debate):
    debate = new_debate()
    ada = debate.participants.get(seat=0).persona.name
    fake_anthropic.script(
        _update(1, ada, overall_stance="Gold is a hedge.", evidence=["the 1970s gold price data"]),
        _update(2, ada),
    )
    _fold(_said(debate, 0, 1, "Gold held its value through the 1970s: look at the 1970s gold price data."))
    _fold(_said(debate, 0, 2, "And it still does."))

    state = re.search(
        rf"^{re.escape(ada)}'s current position state:\n(.*)$", user_text(fake_anthropic.requests[-1]), re.M
    )
    shown = json.loads(state.group(1))
    # What the ledger holds, as it holds it; no unknown side, empty list, empty aspect or the
    # ledger's own bookkeeping (each was paid for on every digest and said nothing).
    assert shown == {
        "overall_stance": "Gold is a hedge.",
        "aspect_positions": {"general": {"evidence": ["the 1970s gold price data"]}},
    }
