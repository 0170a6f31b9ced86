"""A local repository is read without running anything it configures.

The trap: a repository whose own configuration names a program for everything git can be told to
run (gpg.program with log.showSignature and a signed commit, core.fsmonitor, core.pager,
diff.external, a clean/smudge/process filter on every file, core.sshCommand, credential.helper,
core.editor, an include of more of the same, and every hook). Each program writes a marker file.
Attached from the web, as a local repository or as the local clone a GitHub address falls back on,
it is read in full and no marker is ever written.
"""

import subprocess
from html import unescape

import pytest
from django.urls import reverse

from projects import repositories
from projects.models import Repository
from tests.security.local_repositories import git, owner_client_fixture, project_fixture  # noqa: F401

pytestmark = pytest.mark.django_db

HOOKS = [
    *("applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit"),
    *("prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge"),
    *("pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update"),
    *("reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate"),
    *("fsmonitor-watchman", "p4-pre-submit", "post-index-change"),
]


@pytest.fixture
def trapped_repository(tmp_path, settings):
    """A repository under the allowed roots, every program it names writing into ``markers``."""
    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path / "roots")]
    folder = tmp_path / "roots" / "trap"
    folder.mkdir(parents=True)
    markers = tmp_path / "markers"
    markers.mkdir()
    programs = tmp_path / "programs"
    programs.mkdir()

    def program(name: str) -> str:
        script = programs / name
        script.write_text(f"#!/bin/sh\ntouch '{markers / name}'\ncat >/dev/null 2>&1\nexit 0\n")
        script.chmod(0o755)
        return str(script)

    (folder / "README.md").write_text("# Trap\n\nA repository that configures programs.\n")
    (folder / "app.py").write_text("print('trap')\n")
    (folder / ".gitattributes").write_text("* filter=trap diff=trap\n")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "An ordinary commit")
    # A commit carrying a signature header: `git log` with log.showSignature asks gpg.program to verify it.
    head = git(folder, "rev-parse", "HEAD", text=True).stdout.strip()
    tree = git(folder, "rev-parse", "HEAD^{tree}", text=True).stdout.strip()
    signed = (
        f"tree {tree}\nparent {head}\n"
        "author Eve <eve@example.com> 1767225600 +0000\ncommitter Eve <eve@example.com> 1767225600 +0000\n"
        "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n"
        "\nA signed commit\n"
    )
    sha = git(folder, "hash-object", "-t", "commit", "-w", "--stdin", input=signed, text=True).stdout.strip()
    git(folder, "update-ref", "HEAD", sha)

    included = tmp_path / "roots" / "included.config"
    included.write_text(
        f"[core]\n\tpager = {program('included-pager')}\n[gpg]\n\tprogram = {program('included-gpg')}\n"
    )
    settings_ = {
        "log.showSignature": "true",
        "gpg.program": program("gpg"),
        "gpg.ssh.program": program("gpg-ssh"),
        "gpg.x509.program": program("gpg-x509"),
        "core.fsmonitor": program("fsmonitor"),
        "core.pager": program("pager"),
        "pager.log": program("pager-log"),
        "core.editor": program("editor"),
        "core.sshCommand": program("ssh"),
        "core.askPass": program("askpass"),
        "credential.helper": "!" + program("credential"),
        "diff.external": program("diff-external"),
        "diff.trap.command": program("diff-driver"),
        "diff.trap.textconv": program("textconv"),
        "filter.trap.clean": program("clean"),
        "filter.trap.smudge": program("smudge"),
        "filter.trap.process": program("filter-process"),
        "core.hooksPath": str(tmp_path / "hooks"),
        "include.path": str(included),
    }
    for key, value in settings_.items():
        git(folder, "config", key, value)
    (tmp_path / "hooks").mkdir()
    for hook in HOOKS:
        for hooks_folder in (tmp_path / "hooks", folder / ".git" / "hooks"):
            hook_file = hooks_folder / hook
            hook_file.write_text(f"#!/bin/sh\ntouch '{markers / ('hook-' + hook)}'\n")
            hook_file.chmod(0o755)
    # The trap is armed: plain `git log` here runs the repository's gpg.program.
    for marker in markers.iterdir():
        marker.unlink()
    subprocess.run(["git", "-C", str(folder), "log", "-n1"], capture_output=True, check=False)
    assert {marker.name for marker in markers.iterdir()} & {"gpg", "included-gpg"}
    for marker in markers.iterdir():
        marker.unlink()
    return folder, markers


def test_attaching_it_as_a_local_repository_runs_nothing(owner_client, project, trapped_repository):
    folder, markers = trapped_repository

    response = owner_client.post(
        reverse("repository_new", args=[project.pk]), {"source": "local", "name": "", "path": str(folder), "url": ""}
    )

    assert response.status_code == 302, unescape(response.content.decode())
    repository = Repository.objects.get()
    assert [commit["subject"] for commit in repository.commits] == ["A signed commit", "An ordinary commit"]
    assert repository.tree == [".gitattributes", "app.py", "README.md"]
    assert repository.readme.startswith("# Trap")
    owner_client.post(reverse("repository_refresh", args=[project.pk, repository.pk]))
    assert sorted(marker.name for marker in markers.iterdir()) == []


def test_attaching_it_as_the_clone_a_github_address_falls_back_on_runs_nothing(
    owner_client, project, trapped_repository, monkeypatch
):
    folder, markers = trapped_repository
    monkeypatch.setattr(repositories, "GITHUB_TIMEOUT_SECONDS", 2)  # no network here: GitHub is unreachable

    owner_client.post(
        reverse("repository_new", args=[project.pk]),
        {"source": "github", "name": "", "path": str(folder), "url": "https://github.com/eve/trap"},
    )

    repository = Repository.objects.get()
    assert repository.commits[0]["subject"] == "A signed commit"
    assert sorted(marker.name for marker in markers.iterdir()) == []
