"""Which local folders the web may read: only under FAULTLINE_REPOSITORY_ROOTS, in development as
in production, with every place git would follow out of the folder (a .git file or symlink, a
linked worktree's commondir, borrowed objects) checked too; "not allowed" reads the same whether
or not the folder exists. The command line, run by the machine's own user, may read any folder."""

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings

from projects.models import Repository
from projects.services import repository_attach
from tests.security.local_repositories import attach, git, make_repository, owner_client_fixture, project_fixture  # noqa: F401

pytestmark = pytest.mark.django_db

NOT_ALLOWED = "This site reads local repositories only under FAULTLINE_REPOSITORY_ROOTS; upload an archive instead."


@pytest.fixture
def roots(tmp_path, settings):
    settings.PRODUCTION = False
    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path / "roots")]
    (tmp_path / "roots").mkdir()
    return tmp_path / "roots"


def test_development_without_roots_reads_no_local_folder(owner_client, project, tmp_path, settings):
    settings.PRODUCTION = False
    settings.FAULTLINE_REPOSITORY_ROOTS = []
    repository = make_repository(tmp_path / "anywhere")

    assert NOT_ALLOWED in attach(owner_client, project, path=str(repository))
    assert not Repository.objects.exists()


def test_development_defaults_to_a_folder_in_the_state_dir(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "FAULTLINE_REPOSITORY_ROOTS"}
    shown = subprocess.run(
        [sys.executable, "-c", "from faultline import settings; print(settings.FAULTLINE_REPOSITORY_ROOTS)"],
        cwd=django_settings.BASE_DIR,
        # The suite's own services, so that importing the settings starts no embedded ones in tmp_path.
        env={
            **env,
            "FAULTLINE_ENV": "development",
            "FAULTLINE_STATE_DIR": str(tmp_path),
            "DATABASE_URL": django_settings.DATABASE_URL,
            "REDIS_URL": django_settings.REDIS_URL,
        },
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == repr([str(tmp_path.resolve() / "repositories")])


def test_not_allowed_reads_the_same_whether_or_not_the_folder_exists(owner_client, project, tmp_path, settings):
    settings.PRODUCTION = False
    settings.FAULTLINE_REPOSITORY_ROOTS = []
    outside = make_repository(tmp_path / "elsewhere" / "secret-project")
    paths = [str(outside), str(outside.parent), str(tmp_path / "elsewhere" / "no-such-folder"), "/etc", "/no/such"]
    answers = {path: attach(owner_client, project, path=path) for path in paths}

    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path / "roots")]
    (tmp_path / "roots").mkdir()
    (tmp_path / "roots" / "link").symlink_to(outside)  # a symlink under the roots is resolved first
    for path in (str(tmp_path / "roots" / "link"), str(tmp_path / "roots" / ".." / "elsewhere" / "secret-project")):
        answers[path] = attach(owner_client, project, path=path)

    for path, page in answers.items():
        assert NOT_ALLOWED in page, path
        assert "There is no folder" not in page and "not a git repository" not in page, path
    assert not Repository.objects.exists()


def _git_file(roots, outside):
    folder = roots / "checkout"
    folder.mkdir()
    (folder / ".git").write_text(f"gitdir: {outside / '.git'}\n")
    (folder / "README.md").write_text("# Checkout\n")
    return folder


def _git_symlink(roots, outside):
    folder = roots / "checkout"
    folder.mkdir()
    (folder / ".git").symlink_to(outside / ".git")
    return folder


@pytest.mark.parametrize("pointer", [_git_file, _git_symlink])
def test_a_repository_that_points_out_of_the_roots_is_refused(owner_client, project, tmp_path, roots, pointer):
    outside = make_repository(tmp_path / "elsewhere" / "secret-project", subject="Salaries for 2027")
    folder = pointer(roots, outside)

    page = attach(owner_client, project, path=str(folder))

    assert NOT_ALLOWED in page
    assert not Repository.objects.exists()


def test_objects_borrowed_from_outside_the_roots_are_not_read(owner_client, project, tmp_path, roots):
    outside = make_repository(tmp_path / "elsewhere" / "secret-project", subject="Salaries for 2027")
    secret = git(outside, "rev-parse", "HEAD", text=True).stdout.strip()
    folder = make_repository(roots / "borrower", subject="Borrow nothing")
    (folder / ".git" / "objects" / "info" / "alternates").write_text(str(outside / ".git" / "objects") + "\n")
    (folder / ".git" / "refs" / "heads" / "stolen").write_text(secret + "\n")
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/stolen\n")

    attach(owner_client, project, path=str(folder))

    repository = Repository.objects.get()
    assert "Salaries for 2027" not in str(repository.commits)
    assert repository.commits == [] and repository.read_note == "No commits yet."


def test_a_linked_worktree_is_read_only_when_its_main_repository_is_under_the_roots_too(
    owner_client, project, tmp_path, roots
):
    inside = make_repository(roots / "main", subject="On the main checkout")
    git(inside, "worktree", "add", "-q", str(roots / "feature"), "-b", "feature")
    outside = make_repository(tmp_path / "elsewhere" / "secret-project", subject="Salaries for 2027")
    git(outside, "worktree", "add", "-q", str(roots / "borrowed"), "-b", "borrowed")

    assert attach(owner_client, project, path=str(roots / "feature")) == ""
    assert NOT_ALLOWED in attach(owner_client, project, path=str(roots / "borrowed"))

    assert [repository.commits[0]["subject"] for repository in Repository.objects.all()] == ["On the main checkout"]


def test_the_command_line_reads_a_folder_outside_the_roots(project, tmp_path, roots):
    outside = make_repository(tmp_path / "elsewhere" / "my-own-code", subject="Mine")

    repository = repository_attach(project=project, source="local", path=str(outside), any_path=True)

    assert repository.commits[0]["subject"] == "Mine"
