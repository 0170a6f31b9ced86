"""Uploading documents into a project: the request keeps the file and a worker reads it (run here
directly); what can be read is kept as text. What is too big, or not a kind of file Faultline
reads, is refused on the form and nothing is saved; what cannot be read is refused on the
document, saying why."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from projects.models import Document, Project
from projects.tasks import read_document
from tests.support.documents import pdf_with_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def empty_project(user):
    return Project.objects.create(owner=user, name="Reading list")


def upload(client, project, name, data, title=""):
    """Upload, then run the worker's part for what the upload left reading."""
    response = client.post(
        reverse("document_new", args=[project.pk]), {"title": title, "file": SimpleUploadedFile(name, data)}
    )
    for document in Document.objects.filter(status="reading"):
        read_document(document.pk)
    return response


def test_the_request_keeps_the_file_and_the_page_shows_it_reading(owner_client, empty_project):
    response = owner_client.post(
        reverse("document_new", args=[empty_project.pk]), {"file": SimpleUploadedFile("plan.md", b"# Plan")}
    )

    document = Document.objects.get()
    assert response.status_code == 302
    assert (document.status, document.text, bytes(document.upload)) == ("reading", "", b"# Plan")
    page = owner_client.get(reverse("project_detail", args=[empty_project.pk])).content.decode()
    row = f'hx-get="{reverse("document_row", args=[empty_project.pk, document.pk])}"'
    assert "reading…" in page and row in page
    read_document(document.pk)
    document.refresh_from_db()
    assert (document.status, document.text, document.upload) == ("ready", "# Plan", None)
    row = owner_client.get(reverse("document_row", args=[empty_project.pk, document.pk])).content.decode()
    assert "reading…" not in row and "hx-get" not in row and "plan.md" in row


def test_a_markdown_document_is_kept_as_text(owner_client, empty_project):
    response = upload(owner_client, empty_project, "plan.md", b"# Plan\n\nRead *everything* twice.\n")

    assert response.status_code == 302
    document = Document.objects.get()
    assert (document.kind, document.title, document.size) == ("md", "plan.md", 33)
    assert "Read *everything* twice." in document.text
    page = owner_client.get(reverse("project_detail", args=[empty_project.pk]))
    assert "plan.md" in page.content.decode()


def test_a_pdf_is_read_with_pypdf(owner_client, empty_project):
    upload(owner_client, empty_project, "paper.pdf", pdf_with_text("Sprockets beat gears"), title="The paper")

    document = Document.objects.get()
    assert (document.kind, document.title) == ("pdf", "The paper")
    assert "Sprockets beat gears" in document.text


def test_html_is_kept_as_its_visible_text(owner_client, empty_project):
    html = b"<html><head><title>t</title><script>steal()</script></head><body><h1>Findings</h1><p>Gears &amp; sprockets</p></body></html>"
    upload(owner_client, empty_project, "page.html", html)

    text = Document.objects.get().text
    assert "Findings" in text and "Gears & sprockets" in text
    assert "steal" not in text and "<" not in text


def test_a_30_mb_upload_is_refused_and_nothing_is_saved(owner_client, empty_project, settings):
    settings.FAULTLINE_UPLOAD_MAX_MB = 10
    response = upload(owner_client, empty_project, "huge.txt", b"a" * (30 * 1024 * 1024))

    assert response.status_code == 200
    assert "“huge.txt” is 30.0 MB; the largest file you can upload is 10 MB." in response.content.decode()
    assert not Document.objects.exists()


def test_a_file_of_another_kind_is_refused_on_the_form(owner_client, empty_project):
    response = upload(owner_client, empty_project, "tool.exe", b"MZ...")

    assert response.status_code == 200
    message = "“tool.exe” is not a file Faultline can read: upload a .md, .txt, .pdf or .html file."
    assert message in response.content.decode()
    assert not Document.objects.exists()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("broken.pdf", b"%PDF-1.7 this is not really a PDF", "“broken.pdf” is not a PDF Faultline can read"),
        ("scan.pdf", pdf_with_text(""), "“scan.pdf” has no text layer (a scanned PDF?)"),
        ("binary.txt", b"\x00\x01\x02" * 100, "“binary.txt” looks like a binary file, not text."),
        ("blank.md", b"   \n\n  ", "“blank.md” has no text"),
    ],
)
def test_an_unreadable_upload_is_refused_with_a_clear_message(owner_client, empty_project, name, data, message):
    upload(owner_client, empty_project, name, data)

    document = Document.objects.get()
    assert (document.status, document.text, document.upload) == ("refused", "", None)
    assert document.refusal.startswith(message)
    page = owner_client.get(reverse("project_detail", args=[empty_project.pk])).content.decode()
    assert f"not read: {message}" in page
    detail = owner_client.get(reverse("document_detail", args=[empty_project.pk, document.pk])).content.decode()
    assert message in detail


def test_a_plain_text_document_is_shown_as_it_is_escaped(owner_client, empty_project):
    upload(owner_client, empty_project, "x.txt", b"<script>window.__xss=1</script> plain")
    document = Document.objects.get()

    page = owner_client.get(reverse("document_detail", args=[empty_project.pk, document.pk])).content.decode()
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt; plain" in page and "<script>window.__xss" not in page


def test_a_markdown_document_is_shown_as_sanitised_markdown(owner_client, empty_project):
    text = b"# Plan\n\nRead *everything* twice.\n\n<script>window.__xss=1</script>\n\n[go](javascript:alert(1))\n"
    upload(owner_client, empty_project, "plan.md", text)
    document = Document.objects.get()

    page = owner_client.get(reverse("document_detail", args=[empty_project.pk, document.pk])).content.decode()
    body = page.split('id="document-body">', 1)[1].split("</article>", 1)[0]
    assert "<h1>Plan</h1>" in body and "<em>everything</em>" in body
    assert "<script>window.__xss" not in page and "&lt;script&gt;window.__xss=1&lt;/script&gt;" in body
    assert 'href="javascript' not in body  # the link is refused, left as text
