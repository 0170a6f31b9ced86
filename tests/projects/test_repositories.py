"""Attaching repositories: a local git repository, an uploaded archive, a GitHub address (with the
local clone as fallback when GitHub cannot be reached), each read for README, files, languages and
commits; what cannot be read is refused with why, and nothing is saved."""

import io
import subprocess
import zipfile
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from projects import repositories
from projects.models import Repository
from projects.tasks import read_repository_archive

pytestmark = pytest.mark.django_db


def attach(client, project, **data):
    """Attach, then run the worker's part for an archive the upload left reading."""
    response = client.post(reverse("repository_new", args=[project.pk]), {"name": "", "path": "", "url": "", **data})
    for repository in Repository.objects.filter(status="reading"):
        read_repository_archive(repository.pk)
    return response


def test_a_local_git_repository_is_read(owner_client, project, git_repository):
    response = attach(owner_client, project, source="local", path=str(git_repository))

    repository = Repository.objects.get()
    assert response.status_code == 302
    assert (repository.name, repository.source, repository.path) == ("widget", "local", str(git_repository))
    assert repository.readme.startswith("# Widget\n\nWidget turns sprockets into gears")
    assert len(repository.readme) == repositories.README_CHARS
    assert repository.tree == ["README.md", "src/helpers.js", "src/widget.py"]
    assert {item["name"] for item in repository.languages} == {"Markdown", "JavaScript", "Python"}
    assert [commit["subject"] for commit in repository.commits] == ["Add the widget", "Start with a README"]
    assert repository.commits[0]["author"] == "Tess Ter"
    page = owner_client.get(reverse("repository_detail", args=[project.pk, repository.pk])).content.decode()
    assert "src/widget.py" in page and "Add the widget" in page


def test_read_again_picks_up_new_commits(owner_client, project, git_repository):
    attach(owner_client, project, source="local", path=str(git_repository))
    repository = Repository.objects.get()
    (git_repository / "NOTES.txt").write_text("new")
    subprocess.run(["git", "add", "."], cwd=git_repository, check=True)
    subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@e", "commit", "-q", "-m", "Add notes"],
        cwd=git_repository,
        check=True,
    )

    owner_client.post(reverse("repository_refresh", args=[project.pk, repository.pk]))

    repository.refresh_from_db()
    assert repository.commits[0]["subject"] == "Add notes" and "NOTES.txt" in repository.tree


def test_the_tree_shows_fifty_paths_shallowest_first():
    paths = [f"deep/a/b/file{n}.py" for n in range(80)] + ["setup.py", "pkg/mod.py"]
    tree = repositories.top_paths(paths)
    assert len(tree) == 50 and tree[:2] == ["setup.py", "pkg/mod.py"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("", "Give the folder of a local git repository."),
        ("relative/path", "Give the repository's full path (starting with /)."),
        ("/no/such/folder", "This site reads local repositories only under FAULTLINE_REPOSITORY_ROOTS"),
    ],
)
def test_a_bad_local_path_is_refused(owner_client, project, path, message):
    response = attach(owner_client, project, source="local", path=path)
    assert message in unescape(response.content.decode())
    assert not Repository.objects.exists()


def test_a_folder_that_is_missing_or_not_a_repository_is_refused(owner_client, project, tmp_path, settings):
    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path)]
    response = attach(owner_client, project, source="local", path=str(tmp_path))
    assert f"{tmp_path} is not a git repository (it has no .git)." in response.content.decode()
    response = attach(owner_client, project, source="local", path=str(tmp_path / "gone"))
    assert f"There is no folder at {tmp_path / 'gone'}." in unescape(response.content.decode())
    assert not Repository.objects.exists()


def test_in_production_local_paths_are_read_only_under_the_allowed_roots(
    owner_client, project, git_repository, settings
):
    settings.PRODUCTION = True
    settings.FAULTLINE_REPOSITORY_ROOTS = []
    response = attach(owner_client, project, source="local", path=str(git_repository))
    assert "reads local repositories only under FAULTLINE_REPOSITORY_ROOTS" in response.content.decode()
    assert not Repository.objects.exists()

    settings.FAULTLINE_REPOSITORY_ROOTS = [str(git_repository.parent)]
    attach(owner_client, project, source="local", path=str(git_repository))
    assert Repository.objects.get().name == "widget"


def zip_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


def test_an_uploaded_archive_is_read_without_history(owner_client, project):
    data = zip_of({"gadget-main/README.md": "# Gadget\nDoes things.", "gadget-main/lib/core.go": "package core"})

    attach(owner_client, project, source="archive", archive=SimpleUploadedFile("gadget-main.zip", data))

    repository = Repository.objects.get()
    assert (repository.name, repository.source) == ("gadget-main", "archive")
    assert repository.readme == "# Gadget\nDoes things."
    assert repository.tree == ["README.md", "lib/core.go"]
    assert repository.languages[0]["name"] in {"Go", "Markdown"}
    assert repository.commits == [] and "no history" in repository.read_note


def test_an_archive_is_kept_for_a_worker_and_its_page_waits(owner_client, project):
    data = zip_of({"README.md": "# Gadget"})
    response = owner_client.post(
        reverse("repository_new", args=[project.pk]),
        {"source": "archive", "name": "", "path": "", "url": "", "archive": SimpleUploadedFile("gadget.zip", data)},
    )

    repository = Repository.objects.get()
    assert (repository.status, repository.name, repository.filename) == ("reading", "gadget", "gadget.zip")
    assert bytes(repository.upload) == data and repository.readme == ""
    status_url = reverse("repository_status", args=[project.pk, repository.pk])
    assert response["Location"] == reverse("repository_detail", args=[project.pk, repository.pk])
    assert f'hx-get="{status_url}"' in owner_client.get(response["Location"]).content.decode()
    assert "reading…" in owner_client.get(reverse("project_detail", args=[project.pk])).content.decode()
    read_repository_archive(repository.pk)
    repository.refresh_from_db()
    assert (repository.status, repository.readme, repository.upload) == ("ready", "# Gadget", None)
    assert owner_client.get(status_url)["HX-Refresh"] == "true"


def test_a_damaged_or_too_big_archive_is_refused(owner_client, project, settings):
    attach(owner_client, project, source="archive", archive=SimpleUploadedFile("x.zip", b"PK\x03\x04junk"))
    repository = Repository.objects.get()
    assert (repository.status, repository.refusal) == ("refused", "“x.zip” is damaged or not really an archive.")
    page = owner_client.get(reverse("repository_detail", args=[project.pk, repository.pk])).content.decode()
    assert "“x.zip” is damaged or not really an archive." in page
    repository.delete()

    settings.FAULTLINE_UPLOAD_MAX_MB = 1
    big = SimpleUploadedFile("big.zip", b"0" * (2 * 1024 * 1024))
    response = attach(owner_client, project, source="archive", archive=big)
    assert "“big.zip” is 2.0 MB; the largest file you can upload is 1 MB." in response.content.decode()
    assert not Repository.objects.exists()


def test_github_unreachable_falls_back_to_the_local_clone(owner_client, project, git_repository, monkeypatch):
    # No network here: GitHub's API is unreachable, as it is on an offline machine.
    monkeypatch.setattr(repositories, "GITHUB_TIMEOUT_SECONDS", 2)

    response = attach(owner_client, project, source="github", url="https://github.com/acme/widget")
    assert "Give the path of a local clone too, and it is read from there instead." in response.content.decode()
    assert not Repository.objects.exists()

    attach(owner_client, project, source="github", url="https://github.com/acme/widget", path=str(git_repository))
    repository = Repository.objects.get()
    assert (repository.source, repository.url) == ("github", "https://github.com/acme/widget")
    assert "Read from the local clone instead." in repository.read_note
    assert repository.commits[0]["subject"] == "Add the widget"


def test_a_url_that_is_not_github_is_refused(owner_client, project):
    response = attach(owner_client, project, source="github", url="https://gitlab.com/acme/widget")
    assert "Give a GitHub address like https://github.com/owner/name." in response.content.decode()


def test_a_readme_linking_out_of_the_repository_is_not_followed(owner_client, project, git_repository, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the server's secrets")
    (git_repository / "README.md").unlink()
    (git_repository / "README.md").symlink_to(secret)
    subprocess.run(["git", "add", "-A"], cwd=git_repository, check=True)

    attach(owner_client, project, source="local", path=str(git_repository))

    repository = Repository.objects.get()
    assert repository.readme == "" and repository.read_note == "The README could not be read."


def test_a_tar_gz_archive_is_read_too(owner_client, project):
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, text in {"./README": "Plain readme", "./src/app.rs": "fn main() {}"}.items():
            info = tarfile.TarInfo(name)
            info.size = len(text.encode())
            archive.addfile(info, io.BytesIO(text.encode()))

    attach(owner_client, project, source="archive", archive=SimpleUploadedFile("app.tar.gz", buffer.getvalue()))

    repository = Repository.objects.get()
    assert (repository.name, repository.readme, repository.tree) == ("app", "Plain readme", ["README", "src/app.rs"])
    assert repository.languages == [{"name": "Rust", "files": 1}]
