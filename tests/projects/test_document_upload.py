"""Uploading documents into a project: what can be read is kept as text; what is too big or
cannot be read is refused with a message that says why, and nothing is saved."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from projects.models import Document, Project
from tests.support.documents import pdf_with_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def empty_project(user):
    return Project.objects.create(owner=user, name="Reading list")


def upload(client, project, name, data, title=""):
    return client.post(
        reverse("document_new", args=[project.pk]), {"title": title, "file": SimpleUploadedFile(name, data)}
    )


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


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("broken.pdf", b"%PDF-1.7 this is not really a PDF", "“broken.pdf” is not a PDF Faultline can read"),
        ("scan.pdf", pdf_with_text(""), "“scan.pdf” has no text layer (a scanned PDF?)"),
        ("binary.txt", b"\x00\x01\x02" * 100, "“binary.txt” looks like a binary file, not text."),
        ("tool.exe", b"MZ...", "“tool.exe” is not a file Faultline can read: upload a .md, .txt, .pdf or .html file."),
        ("blank.md", b"   \n\n  ", "“blank.md” has no text"),
    ],
)
def test_an_unreadable_upload_is_refused_with_a_clear_message(owner_client, empty_project, name, data, message):
    response = upload(owner_client, empty_project, name, data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Document.objects.exists()


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
