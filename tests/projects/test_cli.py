"""The command line: `rundebate --project P --save-note` prints the id of the note it saved, and
`manage.py notes --project P` lists it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from debates.models import Debate
from projects.models import Note, Project

pytestmark = pytest.mark.django_db(transaction=True)


def test_rundebate_saves_a_note_that_manage_py_notes_lists(scripted_api, personas, capsys):
    scripted_api(dispute="persistent")

    call_command(
        "rundebate",
        "--personas",
        "Ada Hardmoney,Bram Macro",
        "--topic",
        "Is hard money the future?",
        "--max-turns",
        "6",
        "--project",
        "Money book",
        "--user",
        "writer",
        "--save-note",
    )

    captured = capsys.readouterr()
    match = re.search(r"^Note (\d+) saved to project 'Money book'$", captured.out, flags=re.M)
    assert match, captured.out
    assert "Created project 'Money book' for writer" in captured.err
    note = Note.objects.get(pk=int(match.group(1)))
    debate = Debate.objects.get()
    project = Project.objects.get()
    assert (project.name, project.owner.username) == ("Money book", "writer")
    assert not project.owner.has_usable_password()
    assert (note.project, note.debate, debate.owner) == (project, debate, project.owner)
    assert note.tags == ["debate", "dialogue", "project"] and "## Results" in note.content

    call_command("notes", "--project", "money book", "--user", "writer")

    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    note_id, updated, tags, title = lines[0].split("\t")
    assert (int(note_id), tags, title) == (note.pk, "debate,dialogue,project", "Debate: Is hard money the future?")


def test_a_second_run_reuses_the_project(scripted_api, personas, capsys):
    scripted_api(dispute="none")
    for topic in ("First?", "Second?"):
        call_command(
            "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", topic, "--max-turns", "4",
            "--project", "Book", "--user", "writer", "--save-note",
        )  # fmt: skip

    assert Project.objects.count() == 1 and Note.objects.count() == 2
    capsys.readouterr()
    call_command("notes", "--project", "Book", "--user", "writer")
    assert [line.split("\t")[3] for line in capsys.readouterr().out.splitlines()] == [
        "Debate: Second?",
        "Debate: First?",
    ]


def test_save_note_needs_a_project(personas):
    with pytest.raises(CommandError, match="--assignment, --repository and --save-note need --project NAME"):
        call_command("rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "x", "--save-note")
    assert not Debate.objects.exists()


def test_an_unknown_assignment_lists_the_known_ones(personas):
    owner = get_user_model().objects.create_user("writer")
    Project.objects.create(owner=owner, name="Book").assignments.create(name="Chapter 1")

    with pytest.raises(CommandError, match="project 'Book' has no assignment 'Chapter 9'. Known: Chapter 1"):
        call_command(
            "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "x",
            "--project", "Book", "--assignment", "Chapter 9", "--user", "writer",
        )  # fmt: skip
    assert not Debate.objects.exists()


def test_notes_for_an_unknown_project_says_so(db):
    get_user_model().objects.create_user("writer")
    with pytest.raises(CommandError, match="writer has no project called 'Nope'"):
        call_command("notes", "--project", "Nope", "--user", "writer")


@pytest.mark.parametrize(
    "bad",
    [("--personas", "Ada Hardmoney,Nobody Known"), ("--topic", "x" * 501)],
    ids=["unknown persona", "topic too long"],
)
def test_a_refused_debate_creates_no_project_and_no_user(personas, capsys, bad):
    options = {"--personas": "Ada Hardmoney,Bram Macro", "--topic": "Is hard money the future?"}
    options[bad[0]] = bad[1]
    with pytest.raises(CommandError):
        call_command(
            "rundebate", *[part for pair in options.items() for part in pair],
            "--project", "Money book", "--user", "newcomer",
        )  # fmt: skip
    assert not Project.objects.exists() and not Debate.objects.exists()
    assert not get_user_model().objects.filter(username="newcomer").exists()
    assert "Created project" not in capsys.readouterr().err
