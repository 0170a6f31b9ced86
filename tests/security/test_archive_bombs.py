"""Archive bombs: a repository archive's limits count every member (a tar of a million empty
folders is as costly to list as a million files) and the bytes it unpacks to (a few KB of gzip
can hold gigabytes of zeros); a corpus .zip counts its folders too. Each is refused with one line
that says which limit, and nothing is saved. The limits are lowered here to keep the files small."""

import io
import tarfile
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from personas.models import CorpusUpload
from personas.tasks import store_corpus_upload
from projects.models import Project, Repository
from projects.tasks import read_repository_archive
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(user):
    return Project.objects.create(owner=user, name="Code")


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


def _attach(client, project, name, data) -> Repository:
    """Upload the archive, run the worker's part, and return the repository as it was left."""
    client.post(
        reverse("repository_new", args=[project.pk]),
        {"source": "archive", "name": "", "path": "", "url": "", "archive": SimpleUploadedFile(name, data)},
    )
    repository = Repository.objects.get()
    read_repository_archive(repository.pk)
    repository.refresh_from_db()
    return repository


def _tar_of_folders(count: int) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        readme = b"# Many folders\n"
        info = tarfile.TarInfo("README.md")
        info.size = len(readme)
        archive.addfile(info, io.BytesIO(readme))
        for n in range(count):
            folder = tarfile.TarInfo(f"d{n}")
            folder.type = tarfile.DIRTYPE
            archive.addfile(folder)
    return buffer.getvalue()


class _Zeros(io.RawIOBase):
    def __init__(self, size):
        self.left = size

    def readable(self):
        return True

    def readinto(self, buffer):
        count = min(len(buffer), self.left)
        buffer[:count] = bytes(count)
        self.left -= count
        return count


def _tar_gz_of_zeros(size: int) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as archive:
        info = tarfile.TarInfo("zeros.bin")
        info.size = size
        archive.addfile(info, _Zeros(size))
        readme = b"# Zeros\n"
        info = tarfile.TarInfo("README.md")
        info.size = len(readme)
        archive.addfile(info, io.BytesIO(readme))
    return buffer.getvalue()


def test_a_tar_of_many_empty_folders_is_refused_by_its_member_count(owner_client, project, settings):
    settings.FAULTLINE_ARCHIVE_MAX_MEMBERS = 1000

    repository = _attach(owner_client, project, "folders.tar.gz", _tar_of_folders(5000))

    assert repository.status == "refused"
    assert repository.refusal == "“folders.tar.gz” has more than 1000 entries (files and folders); the limit is 1000."
    assert (repository.tree, repository.upload) == ([], None)
    page = owner_client.get(reverse("repository_detail", args=[project.pk, repository.pk])).content.decode()
    assert "“folders.tar.gz” has more than 1000 entries" in page


def test_a_zip_of_many_empty_folders_is_refused_by_its_member_count(owner_client, project, settings):
    settings.FAULTLINE_ARCHIVE_MAX_MEMBERS = 1000
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.md", "# Many folders\n")
        for n in range(1500):
            archive.writestr(f"d{n}/", "")

    repository = _attach(owner_client, project, "folders.zip", buffer.getvalue())

    assert repository.status == "refused"
    assert repository.refusal == "“folders.zip” has 1501 entries (files and folders); the limit is 1000."


def test_a_gzip_bomb_is_refused_by_what_it_unpacks_to(owner_client, project, settings):
    settings.FAULTLINE_ARCHIVE_MAX_UNPACKED_MB = 8
    bomb = _tar_gz_of_zeros(256 * 1024 * 1024)
    assert len(bomb) < 2 * 1024 * 1024

    repository = _attach(owner_client, project, "zeros.tar.gz", bomb)

    assert repository.status == "refused"
    assert repository.refusal == "“zeros.tar.gz” unpacks to more than 8 MB (the limit)."


def test_an_archive_within_the_limits_is_read(owner_client, project, settings):
    settings.FAULTLINE_ARCHIVE_MAX_MEMBERS = 1000
    settings.FAULTLINE_ARCHIVE_MAX_UNPACKED_MB = 8

    repository = _attach(owner_client, project, "folders.tar.gz", _tar_of_folders(500))

    assert (repository.status, repository.readme, repository.tree) == ("ready", "# Many folders", ["README.md"])


def test_a_corpus_zip_of_many_empty_folders_is_refused(owner_client, user):
    persona = PersonaFactory(persona_id="alices-own", name="Alice's Own", owner=user)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("essay.txt", "Gold pays no yield.")
        for n in range(1000):  # with the essay, one past the limit
            archive.writestr(f"d{n}/", "")

    owner_client.post(
        f"/personas/{persona.pk}/corpus/", {"files": [SimpleUploadedFile("essays.zip", buffer.getvalue())]}
    )
    store_corpus_upload(CorpusUpload.objects.get().pk)

    upload = CorpusUpload.objects.get()
    assert upload.status == "failed"
    assert upload.report == ["essays.zip: 1001 entries (files and folders) inside; the limit is 1000"]
