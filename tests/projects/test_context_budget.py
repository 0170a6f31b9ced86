"""The context assembly never passes its budget, whatever the material; and what matters most
(the project itself) comes first."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from projects.context import _Budgeted, context_assemble, estimate_tokens
from projects.models import Assignment, Document, Project, Repository

words = st.text(alphabet=st.sampled_from("abc xyz\n…é"), max_size=3000)


@given(budget=st.integers(min_value=0, max_value=2000), lines=st.lists(st.tuples(words, st.integers(0, 500))))
@settings(max_examples=300, deadline=None)
def test_the_budget_is_never_passed(budget, lines):
    out = _Budgeted(budget)
    for text, max_tokens in lines:
        out.add(text, max_tokens=max_tokens)
    assert estimate_tokens(out.render()) <= budget


@pytest.mark.django_db
@pytest.mark.parametrize("budget", [50, 200, 800, 3000])
def test_a_project_context_fits_any_budget(user, budget):
    project = Project.objects.create(owner=user, name="Big", description="D " * 3000, goals="G " * 3000)
    for n in range(8):
        Document.objects.create(
            project=project, title=f"Doc {n}", kind="txt", filename="d.txt", size=1, text="w " * 9000
        )
        Assignment.objects.create(project=project, name=f"A{n}", brief="b " * 900, checklist=[{"text": "t " * 90}] * 30)
    repository = Repository.objects.create(
        project=project, name="r", source="local", readme="R " * 500, tree=["x"] * 50
    )

    for target in (project, project.assignments.first(), repository):
        assembled = context_assemble(target=target, budget=budget)
        assert estimate_tokens(assembled.text) <= budget
        assert assembled.text.startswith("## Project: Big") or budget < 20


@pytest.mark.django_db
def test_each_document_gets_its_share(user):
    project = Project.objects.create(owner=user, name="Docs")
    for n in range(3):
        Document.objects.create(
            project=project, title=f"Doc {n}", kind="txt", filename="d.txt", size=1, text=f"opening {n} " + "x " * 5000
        )

    text = context_assemble(target=project, budget=1500).text

    assert all(f"opening {n}" in text for n in range(3)), "one long document does not crowd out the others"
