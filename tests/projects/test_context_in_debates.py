"""A debate's context reaches every persona and extraction call, as its own section of the stable
prompt prefix, within its token budget: read from `rundebate --trace` and from what the fake
Messages API received."""

import json

import pytest
from django.core.management import call_command

from debates import prompts as words
from debates.budget import Section, estimate_tokens
from debates.models import Debate
from projects.models import Assignment, Document, Note, Project, Repository
from tests.projects.conftest import MARKER

pytestmark = pytest.mark.django_db(transaction=True)

BUDGET = 600


def header(label: str) -> str:
    """The context section's first line (its wording whatever it is now: the suite rewords it)."""
    return Section(words.CONTEXT_TITLE.format(label=label), 0).header


def context_section(system: str, label: str = "Project “Thesis”") -> str:
    head, tail = header(label), Section(words.CONTEXT_END, 0).header
    assert head in system, "the context section is missing"
    return head + system.split(head, 1)[1].split(tail, 1)[0] + tail


@pytest.fixture
def big_project(user):
    """A project whose material is far larger than any budget: a 400 KB document, many notes."""
    project = Project.objects.create(
        owner=user, name="Thesis", description="A thesis on sprockets.", goals="Defend it."
    )
    Document.objects.create(
        project=project, title="Plan", kind="md", filename="plan.md", size=1, text=MARKER + ". " + "Filler. " * 50_000
    )
    for number in range(20):
        Note.objects.create(project=project, title=f"Note {number}", content="Words. " * 500)
    for number in range(15):
        Assignment.objects.create(project=project, name=f"Task {number}", brief="Do it. " * 200)
    return project


def run(trace, *extra):
    call_command(
        "rundebate",
        "--personas",
        "Ada Hardmoney,Bram Macro",
        "--topic",
        "Should the thesis use the Lisbon data?",
        "--max-turns",
        "6",
        "--trace",
        str(trace),
        "--user",
        "alice",
        *extra,
    )
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_project_context_reaches_every_persona_call_within_its_budget(
    scripted_api, personas, big_project, tmp_path, settings
):
    settings.FAULTLINE_CONTEXT_TOKENS = BUDGET
    api, _ = scripted_api(dispute="persistent")

    calls = run(tmp_path / "trace.jsonl", "--project", "Thesis")

    persona_calls = [call for call in calls if call["role"] == "persona"]
    assert len(persona_calls) >= 6
    sections = {context_section(call["system"][0]) for call in persona_calls}
    assert len(sections) == 1, "the context is assembled once: the same bytes in every call"
    section = sections.pop()
    assert MARKER in section and "Project: Thesis" in section and "Task 0" in section
    assert estimate_tokens(section) <= BUDGET
    assert estimate_tokens(section) > BUDGET * 0.8, "a big project fills its budget"
    # Every extraction call (aspects, ledger digests, the windows' digests, rooms, cards, evidence) has it too.
    side_calls = [call for call in calls if call["role"] != "persona"]
    assert {call["phase"] for call in side_calls} >= {"planning", "ledger", "digest", "evidence_ledger"}
    assert all(context_section(call["system"][0]) == section for call in side_calls)
    # The section sits in the cached prefix, after the persona's own contract.
    sent = [body for body in api.requests if not (body.get("output_config") or {}).get("format")]
    first_block = sent[0]["system"][0]
    assert first_block["text"].startswith("You are ") and section in first_block["text"]
    # (cached once it reaches the model's minimum: tests/llm/test_prompt_breakpoints.py)
    assert first_block.get("cache_control") in (None, {"type": "ephemeral"})
    debate = Debate.objects.get()
    assert (debate.context_type, debate.context_label) == ("project", "Project “Thesis”")


def test_an_assignment_or_a_repository_narrows_the_context(scripted_api, personas, project, git_repository, tmp_path):
    scripted_api(dispute="none")

    calls = run(tmp_path / "a.jsonl", "--project", "Thesis", "--assignment", "chapter 2")
    section = context_section(calls[0]["system"][0], "Assignment “Chapter 2” in project “Thesis”")
    assert "Write the methods chapter." in section and "[x] Outline" in section

    calls = run(tmp_path / "r.jsonl", "--project", "Thesis", "--repository", str(git_repository))
    section = context_section(calls[0]["system"][0], "Repository “widget” in project “Thesis”")
    assert "Widget turns sprockets into gears" in section and "Add the widget" in section
    assert "Python" in section and "src/widget.py" in section
    assert Repository.objects.get().path == str(git_repository.resolve())


def test_a_debate_without_context_has_no_context_section(scripted_api, personas, tmp_path):
    scripted_api(dispute="none")

    calls = call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "4",
        "--trace", str(tmp_path / "t.jsonl"),
    )  # fmt: skip

    calls = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert calls and not any(Section(words.CONTEXT_END, 0).header in call["system"][0] for call in calls)
    assert Debate.objects.get().context_type == "none"
