"""A repository under FAULTLINE_REPOSITORY_ROOTS whose git folder links out of them (its objects,
refs, index or packed-refs, refs/heads to /etc, HEAD naming a path outside the refs) is refused
with one reason, before anything of it is read; links that stay inside the roots are followed."""

import shutil

import pytest
from django.urls import reverse

from projects.models import Repository
from tests.security.local_repositories import attach, git, make_repository, owner_client_fixture, project_fixture  # noqa: F401

pytestmark = pytest.mark.django_db

LINKS_OUT = "links outside the allowed folders"


@pytest.fixture
def roots(tmp_path, settings):
    settings.PRODUCTION = False
    settings.FAULTLINE_REPOSITORY_ROOTS = [str(tmp_path / "roots")]
    (tmp_path / "roots").mkdir()
    return tmp_path / "roots"


@pytest.fixture
def outside(tmp_path):
    """Somebody else's repository outside the roots: a branch, a commit and a file nobody may see."""
    folder = tmp_path / "elsewhere" / "payroll"
    folder.mkdir(parents=True)
    (folder / "salaries-2027.csv").write_text("alice,1\n")
    make_repository(folder, subject="Salaries for 2027")
    git(folder, "branch", "secret-raise")
    return folder


def _relink(path, target):
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target)


def objects_linked_out(inside, outside):
    _relink(inside / ".git" / "objects", outside / ".git" / "objects")
    head = git(outside, "rev-parse", "HEAD", text=True).stdout.strip()
    (inside / ".git" / "refs" / "heads" / "master").write_text(head + "\n")
    (inside / ".git" / "HEAD").write_text("ref: refs/heads/master\n")


def refs_linked_out(inside, outside):
    _relink(inside / ".git" / "refs", outside / ".git" / "refs")


def index_linked_out(inside, outside):
    _relink(inside / ".git" / "index", outside / ".git" / "index")


def packed_refs_linked_out(inside, outside):
    git(outside, "pack-refs", "--all")
    _relink(inside / ".git" / "packed-refs", outside / ".git" / "packed-refs")


def heads_linked_to_etc(inside, outside):
    _relink(inside / ".git" / "refs" / "heads", "/etc")


def head_names_a_path_outside(inside, outside):
    (inside / ".git" / "HEAD").write_text("ref: ../../../../../../../../../etc/hostname\n")


def a_loose_ref_linked_out(inside, outside):
    _relink(inside / ".git" / "refs" / "heads" / "stolen", outside / ".git" / "refs" / "heads" / "secret-raise")


LAYOUTS = [
    objects_linked_out,
    refs_linked_out,
    index_linked_out,
    packed_refs_linked_out,
    heads_linked_to_etc,
    head_names_a_path_outside,
    a_loose_ref_linked_out,
]


@pytest.mark.parametrize("layout", LAYOUTS, ids=[layout.__name__ for layout in LAYOUTS])
def test_a_git_folder_that_links_outside_the_roots_is_refused(owner_client, project, roots, outside, layout):
    inside = make_repository(roots / "innocent", subject="Inside")
    layout(inside, outside)

    page = attach(owner_client, project, path=str(inside))

    assert LINKS_OUT in page
    assert not Repository.objects.exists()
    for secret in ("Salaries for 2027", "secret-raise", "salaries-2027.csv", "adduser", "passwd"):
        assert secret not in page


def test_a_symlinked_refs_folder_outside_the_roots_is_refused(owner_client, project, roots, outside):
    inside = make_repository(roots / "innocent", subject="Inside")
    _relink(inside / ".git" / "refs" / "heads", "/etc")

    assert LINKS_OUT in attach(owner_client, project, path=str(inside))
    assert not Repository.objects.exists()


def test_a_repository_that_links_out_after_it_was_attached_is_refused_when_read_again(
    owner_client, project, roots, outside
):
    inside = make_repository(roots / "innocent", subject="Inside")
    assert attach(owner_client, project, path=str(inside)) == ""
    repository = Repository.objects.get()
    objects_linked_out(inside, outside)

    response = owner_client.post(reverse("repository_refresh", args=[project.pk, repository.pk]), follow=True)

    assert LINKS_OUT in response.content.decode()
    repository.refresh_from_db()
    assert [commit["subject"] for commit in repository.commits] == ["Inside"]


def test_links_that_stay_inside_the_roots_are_followed(owner_client, project, roots):
    shared = make_repository(roots / "shared", subject="Shared history")
    inside = make_repository(roots / "borrower", subject="Borrower")
    objects_linked_out(inside, shared)  # "out" to another repository under the roots: allowed

    assert attach(owner_client, project, path=str(inside)) == ""

    assert Repository.objects.get().commits[0]["subject"] == "Shared history"
