"""What the repository tests share: Alice's client and project, a small git repository, and the
attach form posted as the page posts it."""

import subprocess
from html import unescape

import pytest
from django.urls import reverse

from projects.models import Project


# Named apart from the fixture, so a test file imports it without shadowing its own parameters.
@pytest.fixture(name="owner_client")
def owner_client_fixture(client, user):
    client.force_login(user)
    return client


@pytest.fixture(name="project")
def project_fixture(user):
    return Project.objects.create(owner=user, name="Audit")


def git(folder, *args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-c", "user.name=Eve", "-c", "user.email=eve@example.com", *args],
        cwd=folder,
        check=True,
        capture_output=True,
        **kwargs,
    )


def make_repository(folder, subject: str = "First commit"):
    """A git repository at ``folder`` with a README and one commit called ``subject``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README.md").write_text(f"# {folder.name}\n")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", subject)
    return folder


def attach(client, project, **data) -> str:
    """Post the attach form; the page's text (empty after a redirect: attached)."""
    response = client.post(
        reverse("repository_new", args=[project.pk]), {"source": "local", "name": "", "path": "", "url": "", **data}
    )
    return "" if response.status_code == 302 else unescape(response.content.decode())
