"""Reading an uploaded .zip/.tar.gz of a repository without extracting it: its file tree, its
languages and its README. Run by a worker in a limited child process (gateways/untrusted.py),
never in the web process.

An archive is refused whole (RepositoryUnreadable, saying why) past ``max_members`` members,
every member counted (folders, links and the rest too, not just regular files), or past
``max_unpacked_bytes`` once unpacked: for a zip by the sizes its directory declares, for a tar by
the bytes actually decompressed (a small .tar.gz of gigabytes of zeros stops at the limit).
"""

from __future__ import annotations

import gzip
import io
import re
import tarfile
import zipfile
import zlib
from dataclasses import asdict
from pathlib import PurePosixPath

from projects.repositories import (
    README_CHARS,
    README_NAMES,
    RepositorySnapshot,
    RepositoryUnreadable,
    _clip,
    _readme_name,
    languages_of,
    top_paths,
)

ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar")


class _TooLarge(Exception):
    pass


class _Bounded(io.RawIOBase):
    """A stream that raises _TooLarge once more than ``limit`` bytes have been read from it."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit, self.read_so_far = stream, limit, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        chunk = self.stream.read(size if size is not None and size >= 0 else self.limit + 1)
        self.read_so_far += len(chunk)
        if self.read_so_far > self.limit:
            raise _TooLarge
        return chunk

    def readinto(self, buffer) -> int:
        chunk = self.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def _strip_common_folder(names: list[str]) -> tuple[list[str], str]:
    """Archives made by GitHub or `git archive --prefix` put everything in one folder: drop it."""
    firsts = {name.split("/", 1)[0] for name in names}
    if len(firsts) == 1 and all("/" in name for name in names):
        prefix = firsts.pop() + "/"
        return [name[len(prefix) :] for name in names], prefix
    return names, ""


def _may_be_readme(name: str) -> bool:
    """At the top, or one folder down (the common folder of a GitHub archive)."""
    return name.count("/") <= 1 and PurePosixPath(name).name.lower() in README_NAMES


def _zip_files(data: bytes, *, max_members: int, max_unpacked_bytes: int, too_many, too_big) -> tuple[list[str], bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        if len(infos) > max_members:
            raise RepositoryUnreadable(too_many(len(infos)))
        if sum(info.file_size for info in infos) > max_unpacked_bytes:
            raise RepositoryUnreadable(too_big)
        regular = {info.filename: info for info in infos if not info.is_dir()}
        files, prefix = _strip_common_folder(list(regular))
        readme = _readme_name(files)
        if not readme:
            return files, b""
        with archive.open(regular[prefix + readme]) as handle:  # a bounded read: no zip bomb unpacks
            return files, handle.read(README_CHARS * 4)


def _tar_files(data: bytes, *, max_members: int, max_unpacked_bytes: int, too_many, too_big) -> tuple[list[str], bytes]:
    # Decompressed here, through a counter, and read as a stream: tarfile's own gzip reading would
    # decompress everything a member's declared size skips over, however large.
    raw = gzip.GzipFile(fileobj=io.BytesIO(data)) if data[:2] == b"\x1f\x8b" else io.BytesIO(data)
    # The headers count too: a million empty folders are half a gigabyte of headers.
    stream = _Bounded(raw, max_unpacked_bytes)
    regular, readmes, members = [], {}, 0
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            for member in archive:
                members += 1
                if members > max_members:
                    raise RepositoryUnreadable(too_many(f"more than {max_members}"))
                if not member.isfile():
                    continue
                name = member.name.removeprefix("./")
                regular.append(name)
                if _may_be_readme(name):
                    handle = archive.extractfile(member)
                    readmes[name] = handle.read(README_CHARS * 4) if handle else b""
            # The members list tarfile keeps is of no further use; let it go before the tree is built.
            archive.members = []
    except _TooLarge:
        raise RepositoryUnreadable(too_big) from None
    files, prefix = _strip_common_folder(list(dict.fromkeys(regular)))
    readme = _readme_name(files)
    return files, readmes.get(prefix + readme, b"") if readme else b""


def archive_name(filename: str) -> str:
    """The repository's name by its archive's: ``gadget-main.zip`` is ``gadget-main``."""
    return re.sub(r"\.(zip|tar\.gz|tgz|tar)$", "", PurePosixPath(filename).name, flags=re.I) or "archive"


def archive_read(*, filename: str, data: bytes, max_members: int, max_unpacked_bytes: int) -> dict:
    """The archive's RepositorySnapshot, as a dict (what the child process sends back)."""
    lowered = filename.lower()
    name = archive_name(filename)
    limits = {
        "max_members": max_members,
        "max_unpacked_bytes": max_unpacked_bytes,
        "too_many": lambda count: f"“{filename}” has {count} entries (files and folders); the limit is {max_members}.",
        "too_big": f"“{filename}” unpacks to more than {max_unpacked_bytes // (1024 * 1024)} MB (the limit).",
    }
    try:
        if lowered.endswith(".zip"):
            files, text = _zip_files(data, **limits)
        elif lowered.endswith((".tar.gz", ".tgz", ".tar")):
            files, text = _tar_files(data, **limits)
        else:
            raise RepositoryUnreadable(f"“{filename}” is not an archive Faultline can read: upload a .zip or .tar.gz.")
    except (zipfile.BadZipFile, zipfile.LargeZipFile, tarfile.TarError, zlib.error, EOFError, OSError, KeyError) as exc:
        raise RepositoryUnreadable(f"“{filename}” is damaged or not really an archive.") from exc
    files = [path.replace("\x00", "") for path in files if path and not path.startswith(".git/")]
    if not files:
        raise RepositoryUnreadable(f"“{filename}” is empty.")
    snapshot = RepositorySnapshot(
        name=name.replace("\x00", ""),
        readme=_clip(text.decode("utf-8", "replace").replace("\x00", "")),
        tree=top_paths(files),
        languages=languages_of(files),
        note="An archive carries no history: no commits to show.",
    )
    return asdict(snapshot)
