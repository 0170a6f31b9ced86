"""A dialogue on an open question, run end to end (the real orchestrator, the real anthropic SDK, the
scripted fake Messages API, the offline embedder): planning turns "What should the city do about
traffic?" into the yes/no question the verdict is about; the position ledger's side is the
answer to that question; everyone answering "it depends" agrees only when they hang their answer
on the same condition, said in their own words; a plan no yes/no question fits is reported per
crux. The scripted speakers talk the way a capable model does; the scripted reader answers by the
call's tag and schema only."""

import pytest

from debates.exports import debate_markdown
from debates.models import Debate
from debates.regime import verdict_sentence
from debates.selectors import debate_view
from orchestration.run import debate_run
from tests.orchestrator.conftest import make_persona
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
def city(db):
    return [make_persona(name, forbidden_phrases=[]) for name in (INES, BRAM, CLEO)]


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def open_question_api(settings):
    from tests.support.fake_anthropic import fake_messages_apis

    with fake_messages_apis(settings, retries=2, offline_embeddings=True) as serve:

        def start(**options) -> OpenQuestionScript:
            script = OpenQuestionScript(dispute="none", **options)
            serve(script.respond)
            return script

        yield start


def run(city, topic=TOPIC) -> Debate:
    from debates.services.lifecycle import debate_create

    debate = debate_create(owner=None, topic=topic, personas=city, max_turns=3)
    return debate_run(debate_id=debate.id)


def test_everyone_hanging_their_answer_on_the_same_condition_is_a_conditional_agreement(open_question_api, city):
    script = open_question_api(conditions=SAME_CONDITION)
    debate = run(city)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    results = debate.results
    assert results["decided_on"] == QUESTION
    assert results["final_sides"] == {INES: "NUANCED", BRAM: "NUANCED", CLEO: "NUANCED"}
    assert results["regime"] == "conditional", results["regime_basis"]
    assert results["conditions"] == [SAME_CONDITION[INES]]  # one condition, in the words first recorded
    sentence = verdict_sentence(results=results, status=debate.status)
    assert sentence.startswith("Conditional agreement") and SAME_CONDITION[INES] in sentence
    # The ledger's side is the answer to the planned question, not to the open topic: the digests
    # made once it was planned (the openings' may run beside the planning) are told it.
    assert script.digests and QUESTION in script.digests[-1]


def test_everyone_saying_it_depends_on_something_else_is_no_agreement_and_lists_the_conditions(open_question_api, city):
    open_question_api(conditions=DIFFERENT_CONDITIONS)
    debate = run(city)

    results = debate.results
    assert results["regime"] == "partial", results["regime_basis"]
    assert sorted(results["conditions"]) == sorted(DIFFERENT_CONDITIONS.values())
    sentence = verdict_sentence(results=results, status=debate.status)
    assert sentence.startswith("Partial agreement") and "Consensus" not in sentence
    for condition in DIFFERENT_CONDITIONS.values():
        assert condition in sentence


def test_the_question_decided_on_is_on_the_live_page_the_results_and_the_exports(
    open_question_api, city, signed_in, user
):
    open_question_api()
    from debates.services.lifecycle import debate_create

    debate = debate_run(debate_id=debate_create(owner=user, topic=TOPIC, personas=city, max_turns=3).id)

    page = signed_in.get(f"/debates/{debate.id}/").content.decode()
    results = signed_in.get(f"/debates/{debate.id}/results/").content.decode()
    view = debate_view(debate_id=debate.id)
    for surface in (page, results, debate_markdown(debate=debate, view=view)):
        assert "Decided on" in surface and QUESTION in surface
    exported = signed_in.get(f"/debates/{debate.id}/export.json").json()
    assert exported["summary"]["decided_on"] == QUESTION


def test_a_topic_no_yes_no_question_fits_is_reported_per_crux(open_question_api, city):
    open_question_api(plan="none")
    debate = run(city, topic="How should the city spend its transport budget?")

    results = debate.results
    assert results["regime"] == "not_yes_no"
    assert results["decided_on"] == "" and isinstance(results["per_crux"], list)
    sentence = verdict_sentence(results=results, status=debate.status)
    assert sentence.startswith("Not a yes/no question: no single yes/no question fits the topic")
    assert "Consensus" not in sentence
