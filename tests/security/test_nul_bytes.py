"""NUL bytes (which PostgreSQL cannot store) past the first 8 KB of a text file, in a PDF's text,
in a persona's corpus or in an archive's README are removed from what is kept: the rest of the
text is read as usual, and nothing answers with a 500."""

import io
import tarfile
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from devtools.scripted_debate import DebateScript
from personas.models import PersonaBuild
from personas.tasks import draft_persona_build
from projects.models import Document, Project, Repository
from projects.tasks import read_document, read_repository_archive
from tests.support.documents import pdf_with_text

pytestmark = pytest.mark.django_db

# Past the first 8 KB, where the "is this a binary file?" check looks.
PADDING = b"Plain words of a long memo. " * 400
TEXT = PADDING + b"Before the NUL\x00after the NUL.\n\x00\x00The end."


@pytest.fixture
def project(user):
    return Project.objects.create(owner=user, name="Reading list")


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


def _attach_document(client, project, name, data) -> Document:
    response = client.post(reverse("document_new", args=[project.pk]), {"file": SimpleUploadedFile(name, data)})
    assert response.status_code == 302
    document = Document.objects.get()
    read_document(document.pk)
    document.refresh_from_db()
    return document


@pytest.mark.parametrize("name", ["memo.txt", "memo.md"])
def test_nul_bytes_after_the_first_8_kb_of_a_text_document_are_removed(owner_client, project, name):
    assert len(PADDING) > 8192

    document = _attach_document(owner_client, project, name, TEXT)

    assert document.status == "ready"
    assert "\x00" not in document.text
    assert document.text.endswith("Before the NULafter the NUL.\nThe end.")
    page = owner_client.get(reverse("document_detail", args=[project.pk, document.pk]))
    assert page.status_code == 200 and "Before the NULafter the NUL." in page.content.decode()


def test_nul_characters_in_a_pdfs_text_are_removed(owner_client, project):
    document = _attach_document(owner_client, project, "paper.pdf", pdf_with_text("Sprockets\\000beat gears"))

    assert document.status == "ready"
    assert "Sprocketsbeat gears" in document.text and "\x00" not in document.text


def test_nul_bytes_in_a_persona_corpus_file_are_removed(owner_client, fake_anthropic):
    fake_anthropic.responder = DebateScript().respond

    response = owner_client.post(
        "/personas/build/", {"name": "Ada Ledger", "files": [SimpleUploadedFile("memo.md", TEXT)]}
    )
    assert response.status_code == 302
    build = PersonaBuild.objects.get()
    draft_persona_build(build.pk)  # the worker's part: read, then draft

    build.refresh_from_db()
    assert build.status == "ready", build.errors
    [document] = build.draft["corpus"]["documents"]
    assert "\x00" not in document["text"] and document["text"].endswith("Before the NULafter the NUL.\nThe end.")


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "pack"), [("widget.zip", _zip), ("widget.tar.gz", _tar_gz)])
def test_nul_bytes_in_an_archives_readme_are_removed(owner_client, project, name, pack):
    archive = pack(
        {"widget/README.md": b"# Widget\x00\n\nTurns sprockets\x00 into gears.", "widget/main.py": b"x = 1\n"}
    )

    response = owner_client.post(
        reverse("repository_new", args=[project.pk]),
        {"source": "archive", "name": "", "path": "", "url": "", "archive": SimpleUploadedFile(name, archive)},
    )
    assert response.status_code == 302
    for repository in Repository.objects.filter(status="reading"):
        read_repository_archive(repository.pk)  # the worker's part

    repository = Repository.objects.get()
    assert repository.readme == "# Widget\n\nTurns sprockets into gears."
    assert repository.tree == ["main.py", "README.md"]
