"""Graph mode on an open question, run end to end: the map has nothing to dispute when everyone
answers "it depends"; the verdict then rests on the final answers to the planned question, an
agreement only when they hang on the same condition (said in other words by each), never a
consensus; and the live map's own reading gives way to the one verdict sentence when it ends."""

import pytest

from debates.models import Debate
from debates.regime import verdict_sentence
from debates.selectors import debate_view
from debates.services.lifecycle import debate_create
from orchestration.run import debate_run
from tests.orchestrator.conftest import make_persona
from tests.support.fake_anthropic import fake_messages_apis
from tests.support.open_question import (
    BRAM,
    CLEO,
    DIFFERENT_CONDITIONS,
    INES,
    QUESTION,
    SAME_CONDITION,
    TOPIC,
    OpenQuestionScript,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def graph_on_an_open_question(settings, db):
    city = [make_persona(name, forbidden_phrases=[]) for name in (INES, BRAM, CLEO)]
    with fake_messages_apis(settings, retries=2, offline_embeddings=True) as serve:

        def run(conditions) -> Debate:
            serve(OpenQuestionScript(dispute="none", conditions=conditions).respond)
            debate = debate_create(owner=None, topic=TOPIC, personas=city, max_turns=3, mode="graph")
            return debate_run(debate_id=debate.id)

        yield run


def test_the_same_condition_in_three_wordings_is_a_conditional_agreement(graph_on_an_open_question):
    debate = graph_on_an_open_question(SAME_CONDITION)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    results = debate.results
    assert results["decided_on"] == QUESTION
    assert results["regime"] == "conditional", results["regime_basis"]
    assert results["conditions"] == [SAME_CONDITION[INES]]


def test_three_different_conditions_are_a_partial_agreement_with_each_listed(graph_on_an_open_question):
    debate = graph_on_an_open_question(DIFFERENT_CONDITIONS)

    results = debate.results
    assert results["regime"] == "partial", results["regime_basis"]
    sentence = verdict_sentence(results=results, status=debate.status)
    assert all(condition in sentence for condition in DIFFERENT_CONDITIONS.values())


def test_the_map_panel_says_the_verdict_sentence_once_the_debate_has_ended(graph_on_an_open_question):
    from django.template.loader import render_to_string

    debate = graph_on_an_open_question(SAME_CONDITION)
    view = debate_view(debate_id=debate.id)

    panel = render_to_string("modes/graph/panel.html", {"view": view})
    assert verdict_sentence(results=debate.results, status=debate.status) in panel
    assert "Undetermined" not in panel and "still growing" not in panel
