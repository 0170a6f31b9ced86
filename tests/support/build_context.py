"""What Docker's `COPY . .` takes from a folder, given its .dockerignore.

Docker reads .dockerignore patterns relative to the root of the build context (a pattern without
a slash matches only at the top, unlike .gitignore), cleans them like Go's filepath.Clean, and
leaves out a path when it or one of its parent folders matches, unless a later `!` pattern lets
it back in. pathspec implements the wildcard syntax (`*`, `?`, `[...]`, `**`); anchoring every
pattern at the root gives it Docker's meaning.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
from pathlib import Path

import pathspec


def dockerignore_spec(root: Path) -> pathspec.PathSpec:
    lines = []
    for raw in (root / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = posixpath.normpath(line.removeprefix("!").strip()).lstrip("/")
        lines.append(("!" if negate else "") + "/" + pattern)
    return pathspec.PathSpec.from_lines("gitignore", lines)


def build_context(root: Path) -> list[str]:
    """Every file `COPY . .` would put in the image, as paths relative to root."""
    spec = dockerignore_spec(root)
    taken = []
    for folder, subfolders, files in os.walk(root):
        relative = Path(folder).relative_to(root)
        # A left-out folder is not walked into (it may be a database cluster or a virtualenv).
        subfolders[:] = [name for name in subfolders if not spec.match_file(f"{(relative / name).as_posix()}/")]
        taken.extend(
            (relative / name).as_posix() for name in files if not spec.match_file((relative / name).as_posix())
        )
    return sorted(taken)


def tracked_files(root: Path) -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, text=True, check=True)
    return [name for name in listed.stdout.split("\0") if name and (root / name).is_file()]


def copy_checkout(root: Path, destination: Path) -> Path:
    """A copy of the committed (and staged) files of the checkout: a fresh clone, minus .git."""
    for name in tracked_files(root):
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    return destination


def copy_build_context(root: Path, destination: Path) -> Path:
    """The tree `COPY . .` would give the image's /app."""
    for name in build_context(root):
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    return destination
