"""Uploading a persona's corpus: files, a folder's files or a zip; re-upload replaces; a bad file
is named and the previous corpus kept."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from personas.corpus.models import CorpusDocument
from personas.models import CorpusUpload
from personas.tasks import store_corpus_upload

pytestmark = pytest.mark.django_db


def _stored(response):
    """Run the worker's part of the upload the response started."""
    for upload in CorpusUpload.objects.filter(status="storing"):
        store_corpus_upload(upload.pk)
    return response


def _sources(persona):
    return list(CorpusDocument.objects.filter(persona=persona).values_list("source", flat=True))


def test_upload_stores_the_corpus_and_the_page_lists_it(alice, own_persona):
    response = alice.post(
        f"/personas/{own_persona.pk}/corpus/",
        {
            "files": [SimpleUploadedFile("a.txt", b"First paragraph of writing.\n\nSecond paragraph here.")],
            "folder": [SimpleUploadedFile("b.md", b"# Title\n\nA folder file, in Markdown.")],
        },
    )

    assert response.status_code == 302 and response["Location"] == f"/personas/{own_persona.pk}/"
    waiting = alice.get(f"/personas/{own_persona.pk}/").content.decode()
    assert 'class="spinner"' in waiting and f'hx-get="/personas/{own_persona.pk}/corpus/status/"' in waiting
    assert _sources(own_persona) == []
    _stored(response)
    assert sorted(_sources(own_persona)) == ["a.txt", "b.md"]
    assert alice.get(f"/personas/{own_persona.pk}/corpus/status/")["HX-Refresh"] == "true"
    page = alice.get(f"/personas/{own_persona.pk}/").content.decode()
    assert "a.txt" in page and "b.md" in page and 'id="corpus-documents"' in page
    assert "2 document(s)" in page  # the worker's summary


def test_re_upload_replaces(alice, own_persona):
    _stored(alice.post(f"/personas/{own_persona.pk}/corpus/", {"files": [SimpleUploadedFile("a.txt", b"Old words.")]}))
    _stored(alice.post(f"/personas/{own_persona.pk}/corpus/", {"files": [SimpleUploadedFile("c.txt", b"New words.")]}))

    assert _sources(own_persona) == ["c.txt"]


def test_a_bad_file_is_named_and_the_old_corpus_kept(alice, own_persona):
    _stored(alice.post(f"/personas/{own_persona.pk}/corpus/", {"files": [SimpleUploadedFile("a.txt", b"Old words.")]}))

    response = _stored(
        alice.post(
            f"/personas/{own_persona.pk}/corpus/",
            {"files": [SimpleUploadedFile("c.txt", b"New words."), SimpleUploadedFile("bad.pdf", b"%PDF-garbage")]},
        )
    )

    assert response.status_code == 302
    upload = CorpusUpload.objects.order_by("-created_at").first()
    assert upload.status == "failed" and upload.report[0].startswith("bad.pdf: not a PDF Faultline can read")
    assert upload.files == []
    content = alice.get(f"/personas/{own_persona.pk}/").content.decode()
    assert "bad.pdf: not a PDF Faultline can read" in content
    assert "The last upload was not stored; the corpus is as it was" in content
    assert _sources(own_persona) == ["a.txt"]


def test_a_file_of_another_kind_is_named_on_the_form(alice, own_persona):
    response = alice.post(f"/personas/{own_persona.pk}/corpus/", {"files": [SimpleUploadedFile("deck.pptx", b"PK")]})

    assert response.status_code == 200
    assert "deck.pptx: not a file Faultline can read" in response.content.decode()
    assert "Nothing was stored" in response.content.decode()
    assert not CorpusUpload.objects.exists()


def test_an_empty_upload_is_an_error(alice, own_persona):
    assert "Choose some files" in alice.post(f"/personas/{own_persona.pk}/corpus/", {}).content.decode()


def test_only_the_owner_uploads(alice, seed_persona, others_persona):
    assert alice.get(f"/personas/{seed_persona.pk}/corpus/").status_code == 404
    assert alice.get(f"/personas/{others_persona.pk}/corpus/").status_code == 404


def test_another_users_corpus_status_is_a_404(alice, others_persona):
    assert alice.get(f"/personas/{others_persona.pk}/corpus/status/").status_code == 404


def _folder(*files):
    """A folder upload as the page sends it: the files (Django keeps only their names) and, beside
    them, each file's path from the chosen folder."""
    return {
        "folder": [SimpleUploadedFile(path.rsplit("/", 1)[-1], text.encode()) for path, text in files],
        "folder_paths": json.dumps([path for path, _ in files]),
    }


def test_a_folder_keeps_each_files_path_so_two_files_of_one_name_are_two_documents(alice, own_persona):
    response = alice.post(
        f"/personas/{own_persona.pk}/corpus/",
        _folder(
            ("essays/src/app/notes.md", "Gold pays no yield."),
            ("essays/src/lib/notes.md", "Inflation is a tax."),
            ("essays/top.txt", "At the top."),
        ),
    )

    assert response.status_code == 302
    _stored(response)
    assert sorted(_sources(own_persona)) == ["src/app/notes.md", "src/lib/notes.md", "top.txt"]
    page = alice.get(f"/personas/{own_persona.pk}/").content.decode()
    assert "src/app/notes.md" in page and "src/lib/notes.md" in page


@pytest.mark.parametrize(
    "path",
    ["essays/../../etc/notes.md", "/etc/notes.md", "C:/Users/notes.md", "essays//notes.md", "essays/./notes.md"],
)
def test_a_folder_path_that_could_leave_the_folder_is_refused(alice, own_persona, path):
    response = alice.post(f"/personas/{own_persona.pk}/corpus/", _folder((path, "Words.")))

    assert response.status_code == 200
    assert "not a path inside the folder" in response.content.decode()
    assert not CorpusUpload.objects.exists() and _sources(own_persona) == []


def test_a_folder_path_naming_another_file_is_refused(alice, own_persona):
    data = _folder(("essays/a.md", "Words."))
    data["folder_paths"] = json.dumps(["essays/b.md"])

    response = alice.post(f"/personas/{own_persona.pk}/corpus/", data)

    assert response.status_code == 200 and "names another file" in response.content.decode()
    assert not CorpusUpload.objects.exists()


def test_without_paths_a_folder_keeps_file_names_as_before(alice, own_persona):
    _stored(
        alice.post(f"/personas/{own_persona.pk}/corpus/", {"folder": [SimpleUploadedFile("b.md", b"# T\n\nText.")]})
    )

    assert _sources(own_persona) == ["b.md"]
