"""Insights are scoped to the repository or assignment a debate worked on (and its project), and
recalled per that scope: a debate on repository R gets R's insights first, then its project's own,
never another repository's, and never another user's (real offline embedder)."""

from io import StringIO

import pytest
from django.core.management import call_command

from debates.blackboard.models import PositionState
from debates.services.lifecycle import debate_create
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from memory import prompts as words
from memory.context import memory_section
from memory.models import Insight, MemoryRecall
from memory.services.insights import insights_remember, insights_search, insights_text_search
from memory.services.recall import debate_recall
from projects.models import Assignment, Project, Repository

pytestmark = pytest.mark.django_db

QUESTION = "Should the widget switch from steel gears to brass gears?"
WIDGETS_OWN = "The widget's gears should stay steel until the load tests pass."
PROJECTS_OWN = "Switching the widget to brass gears would cut its noise."  # closer to the question
GADGETS_OWN = "Brass gears wear out faster than steel gears in the widget."
GADGETS_FACT = "Steel or brass: the widget's gears should be brass."
BOBS = "Steel gears are the better choice for the widget."


@pytest.fixture
def workshop(alice):
    project = Project.objects.create(owner=alice, name="Workshop")
    widget = Repository.objects.create(project=project, name="widget", source="local")
    gadget = Repository.objects.create(project=project, name="gadget", source="local")
    return project, widget, gadget


def keep(owner, project, text, *, repository=None, assignment=None, confirmed=False):
    (vector,) = embeddings.embed([text], purpose=Purpose.DOCUMENT).vectors
    return Insight.objects.create(
        owner=owner, project=project, repository=repository, assignment=assignment, kind="finding", text=text,
        confidence=0.9, agreed_by_all=confirmed, review="confirmed" if confirmed else "",
        embedding=vector, embedding_model=embeddings.current_model(),
    )  # fmt: skip


@pytest.fixture
def memories(offline, alice, bob, workshop):
    project, widget, gadget = workshop
    bobs_project = Project.objects.create(owner=bob, name="Workshop")
    bobs_widget = Repository.objects.create(project=bobs_project, name="widget", source="local")
    return {
        "widget": keep(alice, project, WIDGETS_OWN, repository=widget),
        "project": keep(alice, project, PROJECTS_OWN),
        "gadget": keep(alice, project, GADGETS_OWN, repository=gadget),
        "gadget fact": keep(alice, project, GADGETS_FACT, repository=gadget, confirmed=True),
        "bob": keep(bob, bobs_project, BOBS, repository=bobs_widget),
    }


def test_a_repositorys_own_insights_come_first_then_its_projects_never_another_repositorys(memories, alice, workshop):
    project, widget, gadget = workshop

    result = insights_search(owner=alice, project=project, query=QUESTION, repository=widget)

    assert [(r.insight, r.scope) for r in result.insights] == [
        (memories["widget"], "repository"),
        (memories["project"], "project"),
    ]
    assert result.established == []  # gadget's settled fact is gadget's, not widget's
    on_gadget = insights_search(owner=alice, project=project, query=QUESTION, repository=gadget)
    assert [r.insight for r in on_gadget.established] == [memories["gadget fact"]]
    assert [r.insight for r in on_gadget.insights] == [memories["gadget"], memories["project"]]
    # A debate on the whole project recalls all of it, as before scopes: by similarity alone.
    on_project = insights_search(owner=alice, project=project, query=QUESTION)
    assert {r.insight for r in on_project.insights} == {memories["widget"], memories["project"], memories["gadget"]}


def test_a_debate_on_a_repository_recalls_and_shows_its_scope(memories, alice, personas, workshop):
    project, widget, _ = workshop
    debate = debate_create(owner=alice, topic=QUESTION, personas=personas, context=widget)

    recall = debate_recall(debate=debate)

    assert recall.scope == MemoryRecall.Scope.REPOSITORY
    assert [(item.insight.text, item.scope) for item in recall.items.order_by("rank")] == [
        (WIDGETS_OWN, "repository"),
        (PROJECTS_OWN, "project"),
    ]
    section = memory_section(debate)
    assert f"• {words.FROM_THIS_REPOSITORY}Key finding: {WIDGETS_OWN}" in section
    assert f"• Key finding: {PROJECTS_OWN}" in section
    assert GADGETS_OWN not in section and GADGETS_FACT not in section and BOBS not in section


def test_another_users_repository_of_the_same_name_recalls_only_their_own(memories, bob):
    bobs_widget = Repository.objects.get(project__owner=bob)

    result = insights_search(owner=bob, project=bobs_widget.project, query=QUESTION, repository=bobs_widget)

    assert [r.insight for r in result.insights] == [memories["bob"]]


def test_an_assignment_recalls_its_own_then_the_projects_not_another_assignments(offline, alice, workshop):
    project, widget, _ = workshop
    gears = Assignment.objects.create(project=project, name="Gears")
    paint = Assignment.objects.create(project=project, name="Paint")
    own = keep(alice, project, WIDGETS_OWN, assignment=gears)
    projects = keep(alice, project, PROJECTS_OWN)
    keep(alice, project, GADGETS_OWN, assignment=paint)
    keep(alice, project, GADGETS_FACT, repository=widget)

    result = insights_search(owner=alice, project=project, query=QUESTION, assignment=gears)

    assert [(r.insight, r.scope) for r in result.insights] == [(own, "assignment"), (projects, "project")]


def test_without_vectors_the_text_search_keeps_the_same_scope_and_order(alice, workshop):
    project, widget, gadget = workshop
    for text, repository in ((PROJECTS_OWN, None), (WIDGETS_OWN, widget), (GADGETS_OWN, gadget)):
        Insight.objects.create(
            owner=alice, project=project, repository=repository, kind="finding", text=text, confidence=0.9
        )

    result = insights_text_search(owner=alice, project=project, query="widget gears", note="", repository=widget)

    assert [(r.insight.text, r.scope) for r in result.insights] == [
        (WIDGETS_OWN, "repository"),
        (PROJECTS_OWN, "project"),
    ]


def finished_on(owner, target, personas, texts):
    """A debate on ``target`` whose two participants' final ledgers both hold ``texts``."""
    debate = debate_create(owner=owner, topic=QUESTION, personas=personas, context=target)
    for seat in (0, 1):
        PositionState.objects.create(
            debate=debate, persona=personas[seat], agreements=[{"with": personas[1 - seat].id, "on": t} for t in texts]
        )
    return debate


def test_a_repositorys_insight_is_kept_in_its_scope_and_not_merged_into_another_repositorys(
    offline, alice, personas, workshop
):
    project, widget, gadget = workshop
    (on_widget,) = insights_remember(debate=finished_on(alice, widget, personas, [WIDGETS_OWN]))
    assert (on_widget.project, on_widget.repository) == (project, widget)

    # The same point from a debate on gadget is gadget's too (a debate on gadget could not
    # recall widget's); from a debate on the whole project, it is the project's own.
    (on_gadget,) = insights_remember(debate=finished_on(alice, gadget, personas, [WIDGETS_OWN]))
    assert on_gadget.repository == gadget
    (on_project,) = insights_remember(debate=finished_on(alice, project, personas, [WIDGETS_OWN]))
    assert on_project.repository is None
    # Once the project holds it, a repository's debate repeating it adds nothing.
    assert (
        insights_remember(
            debate=finished_on(
                alice, widget, personas, ["the widget's gears should stay steel until the load tests pass"]
            )
        )
        == []
    )


def test_the_recall_command_shows_what_a_debate_on_a_repository_would_recall(memories, alice):
    out = StringIO()

    call_command("recall", "--user", "alice", "--project", "workshop", "--repository", "WIDGET", QUESTION, stdout=out)

    printed = out.getvalue()
    assert f"(this repository) {WIDGETS_OWN}" in printed and PROJECTS_OWN in printed
    assert GADGETS_OWN not in printed and GADGETS_FACT not in printed and BOBS not in printed
