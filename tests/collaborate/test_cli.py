"""`rundebate --mode collaborate`: the artifact printed at the end, saved as a document on ask."""

import pytest
from django.core.management import CommandError, call_command

from debates.models import Debate
from projects.models import Document
from tests.collaborate.conftest import ARTIFACT, BRIEF

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_cli_prints_the_artifact_at_the_end(collab_api, capsys):
    collab_api()
    call_command("rundebate", "--mode", "collaborate", "--topic", BRIEF)

    out = capsys.readouterr().out
    assert out.rstrip().endswith(ARTIFACT)
    assert "===== Artifact: URL shortener design =====" in out and "Status: completed" in out
    assert "(draft): ## Architect: First answer" in out and "(revision): ## Reviewer: Revised answer" in out
    debate = Debate.objects.get()
    assert (debate.mode,) == ("collaborate",)
    assert list(debate.participants.order_by("seat").values_list("persona__name", flat=True)) == [
        "Architect",
        "Reviewer",
    ]


def test_the_cli_notes_a_role_that_said_nothing_instead_of_printing_a_placeholder(collab_api, capsys):
    collab_api(silent=["architect"], fail=["reviewer"])
    call_command("rundebate", "--mode", "collaborate", "--topic", BRIEF)

    out = capsys.readouterr().out
    assert out.count("Architect (draft): [wrote nothing this round]") == 1
    assert out.count("Reviewer (revision): [could not answer: its model call failed]") == 1
    assert "(no answer)" not in out and "(The Reviewer could not answer" not in out


def test_the_cli_saves_the_artifact_to_the_project_as_a_document(collab_api, capsys):
    collab_api()
    call_command(
        "rundebate", "--mode", "collaborate", "--topic", BRIEF, "--project", "Shortener", "--user", "ana",
        "--save-document",
    )  # fmt: skip

    document = Document.objects.get()
    assert document.project.name == "Shortener" and document.project.owner.username == "ana"
    assert document.text == ARTIFACT and document.title == "URL shortener design"
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"Document {document.pk} saved to project 'Shortener'"


def test_save_document_is_for_a_collaboration_with_a_project():
    with pytest.raises(CommandError, match="--save-document needs --project NAME"):
        call_command("rundebate", "--mode", "collaborate", "--topic", BRIEF, "--save-document")
    with pytest.raises(CommandError, match="use it with --mode collaborate"):
        call_command("rundebate", "--mode", "analyst-critic", "--topic", BRIEF, "--project", "P", "--save-document")
    assert not Debate.objects.exists()
