"""Rendered text has a size limit where it comes in (a note, a document written in Faultline) and
the renderer a budget: a stored text past the limit, or too intricate to format quickly, is shown
as plain text under a notice, never formatted for a minute of CPU; real Markdown still renders.
How long each takes is measured in benchmarks/markdown_budget.py, not here."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

from projects.markdown import MARKDOWN_MAX_CHARS, PLAIN_NOTICE
from projects.models import Document, Note, Project
from projects.services import document_write

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def project(user):
    return Project.objects.create(owner=user, name="Budget")


def _note_page(client, project, content: str) -> str:
    note = Note.objects.create(project=project, title="Stored before the limit", content=content)
    response = client.get(reverse("note_detail", args=[project.pk, note.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_note_longer_than_the_limit_is_refused_by_the_form(owner_client, project):
    response = owner_client.post(
        reverse("note_new", args=[project.pk]), {"title": "Brackets", "content": "[" * (MARKDOWN_MAX_CHARS + 1)}
    )

    assert f"Keep a note to {MARKDOWN_MAX_CHARS:,} characters or fewer." in response.content.decode()
    assert not Note.objects.exists()


def test_a_document_written_in_faultline_longer_than_the_limit_is_refused(project):
    with pytest.raises(ValidationError):
        document_write(project=project, title="Artifact", text="[" * (MARKDOWN_MAX_CHARS + 1), filename="a.md")

    assert not Document.objects.exists()


def test_a_note_stored_over_the_limit_is_shown_as_plain_text_with_a_notice(owner_client, project):
    page = _note_page(owner_client, project, "[" * 2_400_000)

    assert PLAIN_NOTICE in page
    assert '<pre class="markdown-plain">[[[[' in page


@pytest.mark.parametrize("pattern", ["[", "*a ", "[a](", "*_", "a\n", "| a |\n|---|\n"])
def test_a_note_too_intricate_to_format_quickly_is_shown_as_plain_text(owner_client, project, pattern):
    text = (pattern * MARKDOWN_MAX_CHARS)[: MARKDOWN_MAX_CHARS - 10]

    assert PLAIN_NOTICE in _note_page(owner_client, project, text)


@pytest.mark.parametrize("pattern", ["&#", "&", "<"])
def test_a_note_full_of_characters_to_escape_is_shown_as_plain_text(owner_client, project, pattern):
    text = "```\n" + (pattern * MARKDOWN_MAX_CHARS)[: MARKDOWN_MAX_CHARS - 10] + "\n```"

    assert PLAIN_NOTICE in _note_page(owner_client, project, text)


def test_plain_text_is_escaped(owner_client, project):
    page = _note_page(owner_client, project, "<script>alert(1)</script>" + "[" * MARKDOWN_MAX_CHARS)

    shown = page.split(PLAIN_NOTICE, 1)[1]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "<script>alert" not in shown


def test_a_200_kb_note_of_real_markdown_still_renders_as_markdown(owner_client, project):
    base = Path(settings.BASE_DIR)
    sources = [base / "README.md", *sorted((base / "docs").glob("*.md"))]
    real = "\n\n".join(path.read_text() for path in sources)
    text = (real * (200_000 // len(real) + 1))[:200_000]

    page = _note_page(owner_client, project, text)

    assert PLAIN_NOTICE not in page
    assert "<h2>Quick start</h2>" in page and "<table>" in page
