"""The persona whose mind a prediction was to change is reminded of it, through their memory, in
their next debate on that crux (and not in a debate on something else)."""

import pytest

from atlas.models import Prediction
from atlas.services.predictions import prediction_create, prediction_update
from memory.services.recall import debate_recall
from tests.atlas.builders import debate_with_cards
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


def test_the_next_debate_on_the_crux_recalls_the_settled_prediction_for_that_persona_only(user):
    ada, bram = PersonaFactory(name="Ada Hawk"), PersonaFactory(name="Bram Dove")
    first = debate_with_cards(
        user,
        topic="Will Bitcoin replace gold?",
        personas=[ada, bram],
        cards=[
            (
                "Does scarcity create value?",
                {ada: "YES", bram: "NO"},
                {ada: "If hash rate fell for two years straight"},
                False,
            )
        ],
    )
    prediction = prediction_create(card=first.crux_cards.get(), persona_id=ada.pk)
    prediction_update(prediction=prediction, status="came_true", outcome_note="It fell through 2027.")

    on_the_crux = debate_with_cards(user, topic="Does scarcity give Bitcoin its value?", personas=[ada, bram])
    recalled = debate_recall(debate=on_the_crux).persona_items.select_related("memory")
    assert [(item.persona_id, item.memory_id) for item in recalled] == [(ada.pk, prediction.reminder_id)]
    assert "came true" in recalled[0].memory.text

    elsewhere = debate_with_cards(user, topic="Should the team store photos in Postgres?", personas=[ada, bram])
    assert not debate_recall(debate=elsewhere).persona_items.exists()


def test_a_finished_debate_keeps_its_checkable_falsifiers_as_predictions_once(user):
    from orchestration.remembering import debate_remember_quietly

    ada, bram = PersonaFactory(name="Ada Hawk"), PersonaFactory(name="Bram Dove")
    debate = debate_with_cards(
        user,
        topic="Will Bitcoin replace gold?",
        personas=[ada, bram],
        cards=[
            (
                "Does scarcity create value?",
                {ada: "YES", bram: "NO"},
                {ada: "If hash rate fell for two years straight.", bram: "A better argument than hers."},
                False,
            )
        ],
    )
    debate_remember_quietly(debate=debate)
    debate_remember_quietly(debate=debate)  # a resumed finish comes twice
    kept = list(Prediction.objects.filter(card__debate=debate))
    assert [(p.persona, p.claim, p.status, p.source) for p in kept] == [
        (ada, "Hash rate fell for two years straight", "open", "falsifier")
    ]
    assert "still open" in kept[0].reminder.text
