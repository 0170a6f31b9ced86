"""Reading a repository for a debate: its README (the first ~1,000 characters), its file tree (50
paths, shallowest first), its languages (top 5, by files) and its recent commits.

Three sources: a local git repository (read with the `git` command, never by running anything the
repository configures), an uploaded .zip/.tar.gz archive (projects/archives.py), and a GitHub
address (its public API, when the network allows; a token is optional). Each returns a
RepositorySnapshot; what could not be read goes in its note, and RepositoryUnreadable is raised
only when there is nothing at all to show.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

README_CHARS = 1000
TREE_PATHS = 50
TOP_LANGUAGES = 5
RECENT_COMMITS = 10
GIT_TIMEOUT_SECONDS = 15
GITHUB_TIMEOUT_SECONDS = 6
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


# ── local git repositories ─────────────────────────────────────────────────────────────────────


def _git(path: Path, *args: str) -> str:
    # Nothing the repository configures may run: no fsmonitor, no pager, no system or global config.
    command = ["git", "-c", f"safe.directory={path}", "-c", "core.fsmonitor=false", "-C", str(path), *args]
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_PAGER": "cat"}
    try:
        result = subprocess.run(command, capture_output=True, timeout=GIT_TIMEOUT_SECONDS, env=env, check=False)
    except FileNotFoundError as exc:
        raise RepositoryUnreadable("git is not installed on the server, so a local repository cannot be read.") from exc
    except subprocess.TimeoutExpired as exc:
        raise RepositoryUnreadable("git took too long to read this repository.") from exc
    if result.returncode != 0:
        detail = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RepositoryUnreadable(f"git failed: {detail[-1] if detail else result.returncode}")
    return result.stdout.decode("utf-8", "replace")


def check_local_path(path: str, *, allowed_roots: list[str], anywhere: bool) -> Path:
    """The repository's folder, resolved, if the site lets users read it; RepositoryUnreadable if not."""
    if not path.strip():
        raise RepositoryUnreadable("Give the folder of a local git repository.")
    folder = Path(path.strip()).expanduser()
    if not folder.is_absolute():
        raise RepositoryUnreadable("Give the repository's full path (starting with /).")
    folder = folder.resolve()
    if not anywhere:
        roots = [Path(root).expanduser().resolve() for root in allowed_roots if root.strip()]
        if not any(folder == root or root in folder.parents for root in roots):
            raise RepositoryUnreadable(
                "This site reads local repositories only under FAULTLINE_REPOSITORY_ROOTS; upload an archive instead."
            )
    if not folder.is_dir():
        raise RepositoryUnreadable(f"There is no folder at {folder}.")
    if not (folder / ".git").exists():
        raise RepositoryUnreadable(f"{folder} is not a git repository (it has no .git).")
    return folder


def read_local(folder: Path) -> RepositorySnapshot:
    try:
        paths = [line for line in _git(folder, "ls-files", "-z").split("\0") if line]
    except RepositoryUnreadable as exc:
        raise RepositoryUnreadable(f"git could not list the files of {folder}.") from exc
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
    try:
        log = _git(folder, "log", f"-n{RECENT_COMMITS}", "--format=%h%x1f%as%x1f%an%x1f%s")
    except RepositoryUnreadable:
        log = ""
        snapshot.note = "No commits yet."
    for line in log.splitlines():
        sha, date, author, subject = (line.split("\x1f") + ["", "", ""])[:4]
        snapshot.commits.append({"sha": sha, "date": date, "author": author, "subject": subject[:200]})
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


def _github_get(path: str, token: str):
    request = urllib.request.Request(
        f"https://api.github.com{path}",
        headers={"Accept": "application/vnd.github+json", "User-Agent": "Faultline"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(request, timeout=GITHUB_TIMEOUT_SECONDS) as response:  # noqa: S310 (fixed host)
        return json.loads(response.read(2_000_000))


def read_github(url: str, *, token: str = "") -> RepositorySnapshot:
    """Raises RepositoryUnreadable (with why) when GitHub cannot be reached or does not answer."""
    owner, name = github_slug(url)
    base = f"/repos/{owner}/{name}"
    try:
        info = _github_get(base, token)
        branch = info.get("default_branch") or "HEAD"
        tree = _github_get(f"{base}/git/trees/{branch}?recursive=1", token)
        paths = [item["path"] for item in tree.get("tree", []) if item.get("type") == "blob"]
        languages = _github_get(f"{base}/languages", token)
        commits = _github_get(f"{base}/commits?per_page={RECENT_COMMITS}", token)
        try:
            readme_info = _github_get(f"{base}/readme", token)
            readme = base64.b64decode(readme_info.get("content", "")).decode("utf-8", "replace")
        except urllib.error.HTTPError:
            readme = ""
    except urllib.error.HTTPError as exc:
        raise RepositoryUnreadable(f"GitHub answered {exc.code} for {owner}/{name}.") from exc
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise RepositoryUnreadable(f"GitHub could not be reached ({getattr(exc, 'reason', exc)}).") from exc
    total = sum(languages.values()) or 1
    return RepositorySnapshot(
        name=f"{owner}/{name}",
        readme=_clip(readme),
        tree=top_paths(paths),
        languages=[
            {"name": lang, "files": None, "share": round(100 * size / total)}
            for lang, size in list(languages.items())[:TOP_LANGUAGES]
        ],
        commits=[
            {
                "sha": commit.get("sha", "")[:7],
                "date": (commit.get("commit", {}).get("author", {}) or {}).get("date", "")[:10],
                "author": (commit.get("commit", {}).get("author", {}) or {}).get("name", ""),
                "subject": commit.get("commit", {}).get("message", "").split("\n", 1)[0][:200],
            }
            for commit in commits[:RECENT_COMMITS]
        ],
    )
