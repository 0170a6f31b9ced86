"""Reading a repository for a debate: its README (the first ~1,000 characters), its file tree (50
paths, shallowest first), its languages (top 5, by files), its recent commits, and what is going on
in it: a local clone's branches, a GitHub repository's open issues and pull requests.

Three sources: a local git repository (read in Python with dulwich, never running or even reading
anything the repository configures), an uploaded .zip/.tar.gz archive (projects/archives.py), and a GitHub
address (its API, when the network allows; a token is optional). Each returns a
RepositorySnapshot; what could not be read goes in its note, and RepositoryUnreadable is raised
only when there is nothing at all to show.

Text from GitHub (titles, labels, bodies) is written by anyone: it is kept as plain one-line text
of bounded length (``plain_text``), and the page escapes it like everything else.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import re
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import httpx
from dulwich.index import Index
from dulwich.object_store import DiskObjectStore
from dulwich.refs import DiskRefsContainer, refname_is_safe
from dulwich.walk import Walker

README_CHARS = 1000
TREE_PATHS = 50
TOP_LANGUAGES = 5
RECENT_COMMITS = 10
BRANCHES = 20
OPEN_ISSUES = 10
OPEN_PULL_REQUESTS = 10
TITLE_CHARS = 160
EXCERPT_CHARS = 280
LABELS = 5
LABEL_CHARS = 40
# Reading a local clone's history stops here (a slow disk, huge commits), with what was read by then.
LOCAL_READ_SECONDS = 5
GITHUB_API_URL = "https://api.github.com"
GITHUB_TIMEOUT_SECONDS = 6
GITHUB_MAX_BYTES = 2_000_000
README_NAMES = ("readme.md", "readme.rst", "readme.txt", "readme")

LANGUAGES = {
    ".py": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".ts": "TypeScript", ".tsx": "TypeScript",
    ".jsx": "JavaScript", ".go": "Go", ".rs": "Rust", ".java": "Java", ".kt": "Kotlin", ".rb": "Ruby",
    ".php": "PHP", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".hpp": "C++", ".cs": "C#",
    ".swift": "Swift", ".m": "Objective-C", ".scala": "Scala", ".sh": "Shell", ".html": "HTML",
    ".css": "CSS", ".scss": "CSS", ".sql": "SQL", ".md": "Markdown", ".rst": "reStructuredText",
    ".ex": "Elixir", ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".lua": "Lua", ".r": "R",
    ".jl": "Julia", ".dart": "Dart", ".vue": "Vue", ".svelte": "Svelte", ".toml": "TOML", ".yml": "YAML",
    ".yaml": "YAML", ".json": "JSON",
}  # fmt: skip


class RepositoryUnreadable(ValueError):
    pass


@dataclass
class RepositorySnapshot:
    name: str
    readme: str = ""
    tree: list[str] = field(default_factory=list)
    languages: list[dict] = field(default_factory=list)
    commits: list[dict] = field(default_factory=list)
    branches: list[dict] = field(default_factory=list)  # [{"name", "current"}], the checked-out one first
    issues: list[dict] = field(default_factory=list)  # open, newest activity first (GitHub only)
    pull_requests: list[dict] = field(default_factory=list)  # open, newest activity first (GitHub only)
    activity_read: bool = False  # whether GitHub answered for the issues and pull requests
    note: str = ""


def top_paths(paths: list[str], limit: int = TREE_PATHS) -> list[str]:
    """The shallowest paths first (what a reader sees on opening the repository), then by name."""
    return sorted(paths, key=lambda path: (path.count("/"), path.lower()))[:limit]


def languages_of(paths: list[str], limit: int = TOP_LANGUAGES) -> list[dict]:
    counts = Counter(LANGUAGES.get(PurePosixPath(path).suffix.lower()) for path in paths)
    counts.pop(None, None)
    return [{"name": name, "files": files} for name, files in counts.most_common(limit)]


def _readme_name(paths: list[str]) -> str | None:
    top_level = {path.lower(): path for path in paths if "/" not in path}
    return next((top_level[name] for name in README_NAMES if name in top_level), None)


def _clip(text: str) -> str:
    return text.strip()[:README_CHARS]


# An HTML comment (closed or not), or a tag: "<" then a letter or "/" ("a < b > c" is not a tag).
_MARKUP = re.compile(r"<!--.*?(?:-->|$)|</?[A-Za-z][^<>]{0,200}>", re.S)


def plain_text(value, limit: int) -> str:
    """Untrusted text as one plain line of at most ``limit`` characters: no control or format
    characters (no bidi overrides, no zero-width tricks), no HTML tags or comments (an issue
    template's hidden text), whitespace collapsed, and the box-drawing rules that frame a prompt's
    sections turned into dashes so nothing can pose as the end of one."""
    text = _MARKUP.sub(" ", str(value or ""))
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)
    text = " ".join(text.replace("─", "-").split())
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


# ── local git repositories ─────────────────────────────────────────────────────────────────────
#
# Read with dulwich, in Python, from the files git keeps: the index, the refs and the objects. The
# repository's configuration is never even parsed, so nothing it names (gpg.program,
# core.fsmonitor, core.pager, hooks, filters, diff.external, includes) can run or be read. Every
# place git would follow out of the folder (a .git file or symlink, a linked worktree's
# commondir, objects borrowed from another repository) is resolved and checked like the folder.

NOT_ALLOWED = "This site reads local repositories only under FAULTLINE_REPOSITORY_ROOTS; upload an archive instead."
LINKS_OUT = (
    "This repository's git folder has links outside the allowed folders (FAULTLINE_REPOSITORY_ROOTS); "
    "upload an archive instead."
)


@dataclass(frozen=True)
class LocalRepository:
    folder: Path  # the working tree, resolved
    control: Path  # its .git folder (where a .git file or symlink points), resolved
    common: Path  # where its objects and refs live (another folder for a linked worktree)
    roots: tuple[Path, ...] | None  # None: anywhere (the command line, run by the machine's own user)

    def allows(self, path: Path) -> bool:
        return _under(path, self.roots)


def _under(path: Path, roots: tuple[Path, ...] | None) -> bool:
    return roots is None or any(path == root or root in path.parents for root in roots)


def _pointer(file: Path, prefix: str = "") -> str:
    """The one-line path a .git file (``gitdir: ...``) or a commondir file holds."""
    with file.open("rb") as handle:
        line = handle.read(4096).decode("utf-8", "replace").splitlines()
    target = line[0].strip() if line else ""
    if not target.startswith(prefix) or not target[len(prefix) :].strip():
        raise OSError(f"{file.name} does not name a folder")
    return target[len(prefix) :].strip()


def check_local_path(path: str, *, allowed_roots: list[str], anywhere: bool) -> LocalRepository:
    """The repository, with every folder it reads resolved, if this caller may read it there;
    RepositoryUnreadable if not. Outside the roots, the answer is the same whether or not the
    folder exists, so nobody learns the server's folders by asking."""
    if not path.strip():
        raise RepositoryUnreadable("Give the folder of a local git repository.")
    folder = Path(path.strip())
    if not folder.is_absolute():
        raise RepositoryUnreadable("Give the repository's full path (starting with /).")
    roots = None if anywhere else tuple(Path(root).expanduser().resolve() for root in allowed_roots if root.strip())
    folder = folder.resolve()
    if not _under(folder, roots):
        raise RepositoryUnreadable(NOT_ALLOWED)
    if not folder.is_dir():
        raise RepositoryUnreadable(f"There is no folder at {folder}.")
    dot_git = folder / ".git"
    not_a_repository = RepositoryUnreadable(f"{folder} is not a git repository (it has no .git).")
    try:
        if dot_git.is_file():
            control = (folder / _pointer(dot_git, "gitdir:")).resolve()
        elif dot_git.is_dir():
            control = dot_git.resolve()
        else:
            raise not_a_repository
        if not _under(control, roots):
            raise RepositoryUnreadable(NOT_ALLOWED)
        common = control
        if (control / "commondir").is_file():
            common = (control / _pointer(control / "commondir")).resolve()
    except OSError as exc:
        raise not_a_repository from exc
    if not _under(common, roots):
        raise RepositoryUnreadable(NOT_ALLOWED)
    repository = LocalRepository(folder=folder, control=control, common=common, roots=roots)
    if roots is not None and _links_out(repository):
        raise RepositoryUnreadable(LINKS_OUT)
    return repository


def _links_out(repository: LocalRepository) -> bool:
    """Whether anything git reads (the index, HEAD, refs, packed-refs, objects, a linked
    worktree's files, borrowed objects) is, or passes through, a symlink that resolves outside
    the roots, or whether HEAD names a ref outside the refs folder (``ref: ../../etc/passwd``).
    dulwich follows symlinks wherever it opens a file, so every link in the git folders is
    resolved and checked here, before any of it is read; links that stay inside are followed."""
    head = repository.control / "HEAD"
    try:
        with head.open("rb") as handle:
            first = handle.read(4096).split(b"\n", 1)[0].strip()
    except OSError:
        first = b""
    if first.startswith(b"ref:") and not refname_is_safe(first[4:].strip()):
        return True
    pending, seen = [repository.control, repository.common], set()
    while pending:
        folder = pending.pop()
        if folder in seen:
            continue
        seen.add(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue  # unreadable here is unreadable to dulwich too: nothing is shown from it
        for entry in entries:
            if entry.is_symlink():
                target = Path(entry.path).resolve()
                if not repository.allows(target):
                    return True
                if target.is_dir():
                    pending.append(target)
            elif entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
        alternates = folder / "info" / "alternates"
        if folder.name == "objects" and alternates.is_file():
            # Borrowed objects outside the roots are never read (_ConfinedObjectStore); the ones
            # inside are read, so their links are checked like the repository's own.
            with alternates.open("rb") as handle:
                lines = handle.read(64 * 1024).decode("utf-8", "replace").splitlines()
            for line in lines:
                borrowed = (folder / line.strip()).resolve() if line.strip() and not line.startswith("#") else None
                if borrowed is not None and repository.allows(borrowed):
                    pending.append(borrowed)
    return False


class _ConfinedObjectStore(DiskObjectStore):
    """Borrows objects (objects/info/alternates) only from folders the caller may read."""

    def __init__(self, path: Path, repository: LocalRepository):
        super().__init__(str(path))
        self.repository = repository

    @property
    def alternates(self):
        if self._alternates is None:
            borrowed = (Path(alternate).resolve() for alternate in self._read_alternate_paths())
            self._alternates = [
                _ConfinedObjectStore(path, self.repository) for path in borrowed if self.repository.allows(path)
            ]
        return self._alternates


def _tracked_paths(repository: LocalRepository) -> list[str]:
    """What ``git ls-files`` lists: the paths in the index."""
    index_file = repository.control / "index"
    if not index_file.is_file():
        return []
    return [os.fsdecode(path) for path in Index(str(index_file))]


def _refs(repository: LocalRepository) -> DiskRefsContainer:
    return DiskRefsContainer(str(repository.common), worktree_path=str(repository.control))


def _recent_commits(repository: LocalRepository, *, deadline: float) -> list[dict]:
    """What ``git log`` shows first: the commits reachable from HEAD, newest first (as many as
    were read by ``deadline``, a time.monotonic())."""
    refs = _refs(repository)
    head = refs[b"HEAD"]
    store = _ConfinedObjectStore(repository.common / "objects", repository)
    # A shallow clone lacks its oldest parents: the history stops there, as git's does.
    walker = Walker(
        store,
        [head],
        max_entries=RECENT_COMMITS,
        get_parents=lambda commit: [parent for parent in commit.parents if parent in store],
    )
    commits = []
    for entry in walker:
        if time.monotonic() > deadline:
            break
        commit = entry.commit
        author = commit.author.decode("utf-8", "replace")
        commits.append(
            {
                "sha": commit.id.decode()[:7],
                "date": dt.datetime.fromtimestamp(
                    commit.author_time, dt.timezone(dt.timedelta(seconds=commit.author_timezone))
                )
                .date()
                .isoformat(),
                "author": author.split(" <", 1)[0].strip(),
                "subject": commit.message.decode("utf-8", "replace").strip().split("\n", 1)[0][:200],
            }
        )
    return commits


def _branches(repository: LocalRepository) -> list[dict]:
    """What ``git branch`` lists: the local branches, the checked-out one first, then by name;
    at most BRANCHES. Only names are read (the refs folder and packed-refs), no commit."""
    refs = _refs(repository)
    head = (refs.read_ref(b"HEAD") or b"").strip()  # "ref: refs/heads/NAME" when a branch is checked out
    current = head[len(b"ref: refs/heads/") :] if head.startswith(b"ref: refs/heads/") else None
    names = refs.keys(base=b"refs/heads/")
    ordered = sorted(names, key=lambda name: (name != current, name.lower()))[:BRANCHES]
    return [{"name": plain_text(name.decode("utf-8", "replace"), 120), "current": name == current} for name in ordered]


def read_local(repository: LocalRepository) -> RepositorySnapshot:
    folder = repository.folder
    try:
        paths = _tracked_paths(repository)
    except Exception as exc:  # dulwich raises many kinds on a damaged index; all mean the same here
        raise RepositoryUnreadable(f"The files of {folder} could not be listed (its git index is damaged).") from exc
    snapshot = RepositorySnapshot(name=folder.name, tree=top_paths(paths), languages=languages_of(paths))
    if readme := _readme_name(paths):
        # Never follow a README that links out of the repository (to /etc/passwd, say).
        target = (folder / readme).resolve()
        try:
            if folder not in target.parents:
                raise OSError("outside the repository")
            with target.open("rb") as handle:
                snapshot.readme = _clip(handle.read(README_CHARS * 4).decode("utf-8", "replace"))
        except OSError:
            snapshot.note = "The README could not be read."
    deadline = time.monotonic() + LOCAL_READ_SECONDS
    try:
        snapshot.commits = _recent_commits(repository, deadline=deadline)
    except Exception:  # no HEAD yet, a missing object, a format dulwich does not read: no history shown
        snapshot.note = "No commits yet."
    try:
        snapshot.branches = _branches(repository)
    except Exception:  # damaged refs: the rest is still worth showing
        snapshot.note = " ".join(filter(None, [snapshot.note, "The branches could not be listed."]))
    if not paths and not snapshot.commits:
        raise RepositoryUnreadable(f"{folder} has no files and no commits yet.")
    return snapshot


# ── GitHub ─────────────────────────────────────────────────────────────────────────────────────

GITHUB_URL = re.compile(r"^https?://(?:www\.)?github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?$")


def github_slug(url: str) -> tuple[str, str]:
    match = GITHUB_URL.match(url.strip())
    if not match:
        raise RepositoryUnreadable("Give a GitHub address like https://github.com/owner/name.")
    return match.group(1), match.group(2)


def github_client(*, api_url: str = GITHUB_API_URL, token: str = "", timeout: float | None = None):
    """An HTTP client for GitHub's REST API at ``api_url`` (GitHub Enterprise, or a stand-in),
    every request time-limited."""
    return httpx.Client(
        base_url=api_url.rstrip("/"),
        headers={
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": "Faultline",
        }
        | ({"Authorization": f"Bearer {token}"} if token else {}),
        timeout=timeout or GITHUB_TIMEOUT_SECONDS,
        follow_redirects=True,
    )


def _github_get(client: httpx.Client, path: str, params: dict | None = None):
    """The JSON GitHub answers at ``path``; never more than GITHUB_MAX_BYTES of it read.
    Raises httpx.HTTPStatusError for an error status, httpx.HTTPError when unreachable."""
    with client.stream("GET", path, params=params) as response:
        response.raise_for_status()
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > GITHUB_MAX_BYTES:
                raise ValueError(f"GitHub's answer for {path} is larger than {GITHUB_MAX_BYTES} bytes")
        return json.loads(bytes(body))


def _why_not(exc: Exception, owner: str, name: str) -> str:
    if isinstance(exc, httpx.HTTPStatusError):
        return f"GitHub answered {exc.response.status_code} for {owner}/{name}."
    if isinstance(exc, httpx.TimeoutException):
        return "GitHub did not answer in time."
    if isinstance(exc, httpx.HTTPError):
        return f"GitHub could not be reached ({exc.__class__.__name__}: {str(exc)[:120]})."
    return f"GitHub's answer could not be read ({str(exc)[:120]})."


GITHUB_ERRORS = (httpx.HTTPError, ValueError, TypeError, AttributeError, KeyError)


def _labels(item: dict) -> list[str]:
    labels = item.get("labels") or []
    names = (label.get("name") if isinstance(label, dict) else label for label in labels if label)
    return [plain_text(name, LABEL_CHARS) for name in names if name][:LABELS]


def _github_item(item: dict) -> dict:
    """An issue or a pull request as the context and the page show it, every field bounded."""
    return {
        "number": int(item.get("number") or 0),
        "title": plain_text(item.get("title"), TITLE_CHARS),
        "state": plain_text(item.get("state"), 20),
        "labels": _labels(item),
        "draft": bool(item.get("draft")),
        "author": plain_text((item.get("user") or {}).get("login"), 40),
        "updated": plain_text(item.get("updated_at"), 20)[:10],
        "excerpt": plain_text(item.get("body"), EXCERPT_CHARS),
    }


def github_activity(client: httpx.Client, owner: str, name: str) -> tuple[list[dict], list[dict]]:
    """(open issues, open pull requests) of ``owner/name``, most recently updated first. GitHub
    lists pull requests among the issues too (with a ``pull_request`` key): they are kept apart.
    If the pull requests cannot be listed on their own, the ones among the issues are used.
    Raises what ``_github_get`` raises when the issues cannot be read."""
    base = f"/repos/{owner}/{name}"
    listed = _github_get(
        client, f"{base}/issues", {"state": "open", "sort": "updated", "per_page": OPEN_ISSUES + OPEN_PULL_REQUESTS}
    )
    listed = [item for item in listed if isinstance(item, dict)]
    issues = [_github_item(item) for item in listed if "pull_request" not in item][:OPEN_ISSUES]
    try:
        pulls = _github_get(
            client, f"{base}/pulls", {"state": "open", "sort": "updated", "per_page": OPEN_PULL_REQUESTS}
        )
        pulls = [item for item in pulls if isinstance(item, dict)]
    except GITHUB_ERRORS:
        pulls = [item for item in listed if "pull_request" in item]
    return issues, [_github_item(item) for item in pulls][:OPEN_PULL_REQUESTS]


def read_github_activity(
    url: str, *, api_url: str = GITHUB_API_URL, token: str = "", timeout: float | None = None
) -> tuple[list[dict], list[dict]]:
    """A GitHub repository's open issues and pull requests; RepositoryUnreadable (with why) if
    GitHub cannot be reached or does not answer."""
    owner, name = github_slug(url)
    try:
        with github_client(api_url=api_url, token=token, timeout=timeout) as client:
            return github_activity(client, owner, name)
    except GITHUB_ERRORS as exc:
        raise RepositoryUnreadable(_why_not(exc, owner, name)) from exc


def read_github(url: str, *, api_url: str = GITHUB_API_URL, token: str = "") -> RepositorySnapshot:
    """Raises RepositoryUnreadable (with why) when GitHub cannot be reached or does not answer.
    Open issues and pull requests that cannot be read are said in the note; the rest is kept."""
    owner, name = github_slug(url)
    base = f"/repos/{owner}/{name}"
    note = ""
    try:
        with github_client(api_url=api_url, token=token) as client:
            info = _github_get(client, base)
            branch = info.get("default_branch") or "HEAD"
            tree = _github_get(client, f"{base}/git/trees/{branch}", {"recursive": "1"})
            paths = [item["path"] for item in tree.get("tree", []) if item.get("type") == "blob"]
            languages = _github_get(client, f"{base}/languages")
            commits = _github_get(client, f"{base}/commits", {"per_page": RECENT_COMMITS})
            try:
                readme_info = _github_get(client, f"{base}/readme")
                readme = base64.b64decode(readme_info.get("content", "")).decode("utf-8", "replace")
            except httpx.HTTPStatusError:
                readme = ""
            activity_read = True
            try:
                issues, pulls = github_activity(client, owner, name)
            except GITHUB_ERRORS as exc:  # issues switched off (410), a rate limit: the rest still stands
                issues, pulls, activity_read = [], [], False
                note = f"Open issues and pull requests could not be read: {_why_not(exc, owner, name)}"
            return RepositorySnapshot(
                name=f"{owner}/{name}",
                readme=_clip(readme),
                tree=top_paths(paths),
                languages=_github_languages(languages),
                commits=[_github_commit(commit) for commit in commits[:RECENT_COMMITS]],
                issues=issues,
                pull_requests=pulls,
                activity_read=activity_read,
                note=note,
            )
    except GITHUB_ERRORS as exc:  # unreachable, an error status, or an answer not shaped like GitHub's
        raise RepositoryUnreadable(_why_not(exc, owner, name)) from exc


def _github_languages(languages: dict) -> list[dict]:
    total = sum(languages.values()) or 1
    return [
        {"name": lang, "files": None, "share": round(100 * size / total)}
        for lang, size in list(languages.items())[:TOP_LANGUAGES]
    ]


def _github_commit(commit: dict) -> dict:
    return {
        "sha": commit.get("sha", "")[:7],
        "date": (commit.get("commit", {}).get("author", {}) or {}).get("date", "")[:10],
        "author": (commit.get("commit", {}).get("author", {}) or {}).get("name", ""),
        "subject": commit.get("commit", {}).get("message", "").split("\n", 1)[0][:200],
    }
