"""Reading a corpus upload into files and their text.

Every way in (a path on disk, a folder, a ``.zip``, web uploads) ends as a list of ``CorpusFile``
with a ``source`` name that error messages and citations use. Limits are checked before anything
is decompressed or parsed in full; a zip is opened defensively (total and per-file uncompressed
size, file count, compression ratio, no absolute paths or ``..``). What cannot be read raises
``CorpusError`` naming the file; callers parse everything before writing anything.
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from bs4 import BeautifulSoup

from gateways.file_text import UnreadablePdf, pdf_text, text_tidy

KINDS = {".txt": "txt", ".text": "txt", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".pdf": "pdf"}
ACCEPTED = ".txt, .md, .html, .pdf, a folder of them or a .zip"

MAX_FILE_BYTES = 10 * 1024 * 1024  # one file, as uploaded or once unpacked
MAX_TOTAL_BYTES = 50 * 1024 * 1024  # the whole corpus, unpacked
MAX_FILES = 500
MAX_ZIP_ENTRIES = 2 * MAX_FILES  # every member of a .zip, folders included
MAX_SOURCE_CHARS = 300  # CorpusDocument.source
MAX_ZIP_RATIO = 100  # uncompressed / compressed, per member: past this it is treated as a zip bomb
MAX_TEXT_CHARS = 5_000_000  # readable text of the whole corpus


class CorpusError(Exception):
    """Nothing was stored. ``errors`` holds one line per problem, each naming the file."""

    def __init__(self, errors: list[str] | str):
        errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("\n".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class CorpusFile:
    source: str  # how messages and citations name it: "essays/a.md", "posts.zip/2019/b.html"
    kind: str  # a key of CorpusDocument.Kind: txt | md | html | pdf
    data: bytes

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def corpus_kind(name: str) -> str | None:
    return KINDS.get(PurePosixPath(name).suffix.lower())


def _hidden(parts) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in parts)


# ── ways in ────────────────────────────────────────────────────────────────────────────────


def corpus_files_at(path: Path | str) -> list[CorpusFile]:
    """The readable files at ``path``: one file, every readable file under a folder (recursively,
    hidden files skipped, names relative to the folder), or the files inside a ``.zip``."""
    path = Path(path)
    if path.is_dir():
        found = sorted(
            child
            for child in path.rglob("*")
            if child.is_file() and not _hidden(child.relative_to(path).parts) and corpus_kind(child.name)
        )
        if not found:
            raise CorpusError(f"{path}: no {', '.join(sorted(set(KINDS)))} files in this folder")
        if len(found) > MAX_FILES:
            raise CorpusError(f"{path}: {len(found)} files; the limit is {MAX_FILES}")
        files = []
        total = 0
        for child in found:
            label = child.relative_to(path).as_posix()
            size = child.stat().st_size
            if size > MAX_FILE_BYTES:
                raise CorpusError(_too_large(label, size))
            total += size
            if total > MAX_TOTAL_BYTES:
                raise CorpusError(f"{path}: more than {MAX_TOTAL_BYTES} bytes in all (the limit), at {label}")
            files.append(CorpusFile(source=label, kind=corpus_kind(child.name), data=child.read_bytes()))
        return files
    if path.is_file():
        size = path.stat().st_size
        limit = MAX_TOTAL_BYTES if path.suffix.lower() == ".zip" else MAX_FILE_BYTES
        if size > limit:
            raise CorpusError(_too_large(path.name, size, limit))
        return corpus_files_from_uploads([(path.name, path.read_bytes())])
    raise CorpusError(f"{path}: no such file or folder")


def corpus_files_from_uploads(uploads: list[tuple[str, bytes]]) -> list[CorpusFile]:
    """Web uploads as (filename, content): readable files as they are, a ``.zip`` opened. A
    filename may be a path inside an uploaded folder (``notes/gold.md``, see ``upload_path``)."""
    files: list[CorpusFile] = []
    for filename, content in uploads:
        name = upload_path(filename)
        if name.lower().endswith(".zip"):
            files += _files_in_zip(zip_name=name, content=content)
        elif corpus_kind(name):
            if len(content) > MAX_FILE_BYTES:
                raise CorpusError(_too_large(name, len(content)))
            files.append(CorpusFile(source=name, kind=corpus_kind(name), data=content))
        else:
            raise CorpusError(f"{name}: not a file Faultline can read; upload {ACCEPTED}")
    if not files:
        raise CorpusError("No files to read: upload " + ACCEPTED)
    _check_totals(files)
    sources = [file.source for file in files]
    duplicates = sorted({source for source in sources if sources.count(source) > 1})
    if duplicates:
        raise CorpusError([f"{source}: uploaded more than once" for source in duplicates])
    return files


def corpus_uploads_check(uploads: list[tuple[str, bytes]]) -> None:
    """What the web request checks of an upload before a worker reads it (``corpus_uploads_read``):
    the names, the kinds by name, the sizes and the count. Nothing is opened or parsed here."""
    if not uploads:
        raise CorpusError("No files to read: upload " + ACCEPTED)
    names = []
    for filename, content in uploads:
        name = upload_path(filename)
        limit = MAX_TOTAL_BYTES if name.lower().endswith(".zip") else MAX_FILE_BYTES
        if not name.lower().endswith(".zip") and not corpus_kind(name):
            raise CorpusError(f"{name}: not a file Faultline can read; upload {ACCEPTED}")
        if len(content) > limit:
            raise CorpusError(_too_large(name, len(content), limit))
        names.append(name)
    if len(uploads) > MAX_FILES:
        raise CorpusError(f"{len(uploads)} files; the limit is {MAX_FILES}")
    if (total := sum(len(content) for _, content in uploads)) > MAX_TOTAL_BYTES:
        raise CorpusError(f"{total} bytes in all; the limit is {MAX_TOTAL_BYTES}")
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise CorpusError([f"{name}: uploaded more than once" for name in duplicates])


def upload_path(filename: str) -> str:
    """An uploaded file's name, or its path inside an uploaded folder, as its source: refused
    (CorpusError) if it could point outside the folder (absolute, a drive, ``..``)."""
    path = filename.replace("\\", "/")
    parts = path.split("/")
    if path.startswith("/") or re.match(r"^[A-Za-z]:", path) or any(part in {"", ".", ".."} for part in parts):
        raise CorpusError(f"{filename[:80]}: not a path inside the folder (no absolute paths, no '..'); refused")
    if not path.isprintable():
        raise CorpusError(f"{filename[:80]!r}: control characters in the name; refused")
    return path


def folder_upload_paths(names: list[str], relative_paths: list[str]) -> list[str]:
    """Each uploaded folder file's path inside the folder (``src/notes/gold.md``), so files of one
    name in two subfolders stay two documents. Django keeps only the last part of an upload's
    file name, so the page sends each file's path from the chosen folder beside the files, in
    their order; the folder's own name is dropped. Without paths (no script ran): the names."""
    if not relative_paths:
        return names
    if len(relative_paths) != len(names):
        raise CorpusError("The folder's list of paths did not match its files; choose the folder again.")
    paths = []
    for name, relative in zip(names, relative_paths, strict=True):
        inner = upload_path(relative).split("/", 1)[-1]  # under the chosen folder
        directory, _, last = inner.rpartition("/")
        if html.unescape(last) != name:  # Django unescapes an upload's file name
            raise CorpusError(f"{name}: its path in the folder ({relative[:80]}) names another file; refused")
        paths.append(upload_path(f"{directory}/{name}" if directory else name))
    return paths


def _check_totals(files: list[CorpusFile]) -> None:
    if len(files) > MAX_FILES:
        raise CorpusError(f"{len(files)} files; the limit is {MAX_FILES}")
    total = sum(len(file.data) for file in files)
    if total > MAX_TOTAL_BYTES:
        raise CorpusError(f"{total} bytes in all; the limit is {MAX_TOTAL_BYTES}")


def _files_in_zip(*, zip_name: str, content: bytes) -> list[CorpusFile]:
    """The readable members of a zip, refused whole if it is unsafe: sizes are the declared ones,
    checked before reading, and reading stops at the declared size (a lying header is an error)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            # Every member counts, folders too: a million empty folders cost as much to list.
            if (entries := len(archive.infolist())) > MAX_ZIP_ENTRIES:
                raise CorpusError(
                    f"{zip_name}: {entries} entries (files and folders) inside; the limit is {MAX_ZIP_ENTRIES}"
                )
            infos = [info for info in archive.infolist() if not info.is_dir()]
            if len(infos) > MAX_FILES:
                raise CorpusError(f"{zip_name}: {len(infos)} files inside; the limit is {MAX_FILES}")
            members, total = [], 0
            for info in infos:
                label = f"{zip_name}/{info.filename}"
                parts = PurePosixPath(info.filename.replace("\\", "/")).parts
                if info.filename.startswith(("/", "\\")) or ".." in parts or re.match(r"^[A-Za-z]:", info.filename):
                    raise CorpusError(f"{label}: a path outside the archive; refused")
                if _hidden(parts) or not corpus_kind(info.filename):
                    continue
                if info.file_size > MAX_FILE_BYTES:
                    raise CorpusError(_too_large(label, info.file_size))
                if info.file_size > 1024 * 1024 and info.file_size > MAX_ZIP_RATIO * max(info.compress_size, 1):
                    raise CorpusError(
                        f"{label}: compressed {info.file_size // max(info.compress_size, 1)}:1, "
                        f"past the {MAX_ZIP_RATIO}:1 limit (a zip bomb?); refused"
                    )
                total += info.file_size
                if total > MAX_TOTAL_BYTES:
                    raise CorpusError(f"{zip_name}: more than {MAX_TOTAL_BYTES} bytes once unpacked (the limit)")
                members.append((label, info))
            if not members:
                raise CorpusError(f"{zip_name}: no {', '.join(sorted(set(KINDS)))} files in this archive")
            files = []
            for label, info in sorted(members, key=lambda member: member[0]):
                with archive.open(info) as handle:
                    data = handle.read(info.file_size + 1)
                if len(data) > info.file_size:
                    raise CorpusError(f"{label}: larger than its archive entry says; refused")
                files.append(CorpusFile(source=label, kind=corpus_kind(info.filename), data=data))
            return files
    except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError, EOFError, OSError) as exc:
        raise CorpusError(f"{zip_name}: not a readable .zip file ({exc})") from exc


def _too_large(label: str, size: int, limit: int = MAX_FILE_BYTES) -> str:
    return f"{label}: too large ({size} bytes; the limit is {limit})"


# ── reading text ───────────────────────────────────────────────────────────────────────────


def corpus_file_text(file: CorpusFile) -> str:
    """The readable text of one file, tidied (line endings, trailing spaces, runs of blank lines);
    CorpusError naming the file when there is none or it cannot be read."""
    if file.kind == "pdf":
        text = _pdf_text(file)
    else:
        text = _decoded(file)
        if file.kind == "html":
            text = _html_text(text)
    text = text_tidy(text)
    if not text:
        what = "no text layer (a scanned PDF?)" if file.kind == "pdf" else "no text"
        raise CorpusError(f"{file.source}: has {what}")
    return text


def corpus_texts(files: list[CorpusFile]) -> list[dict]:
    """Each file's source, kind, sha256 and text (CorpusError listing every unreadable file)."""
    texts, errors = [], []
    for file in files:
        if len(file.source) > MAX_SOURCE_CHARS:
            errors.append(f"{file.source[:80]}…: a path longer than {MAX_SOURCE_CHARS} characters; rename it")
            continue
        try:
            text = corpus_file_text(file)
        except CorpusError as exc:
            errors += exc.errors
            continue
        texts.append({"source": file.source, "kind": file.kind, "sha256": file.sha256, "text": text})
    if errors:
        raise CorpusError(errors)
    return texts


def corpus_uploads_read(*, uploads: list[tuple[str, bytes]]) -> list[dict]:
    """Web uploads opened and read (``corpus_texts``): what a worker runs in a limited child
    process (gateways/untrusted.py), never the web process."""
    return corpus_texts(corpus_files_from_uploads(uploads))


def _decoded(file: CorpusFile) -> str:
    if b"\x00" in file.data[:8192]:
        raise CorpusError(f"{file.source}: looks like a binary file, not text")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return file.data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CorpusError(f"{file.source}: not text Faultline can decode (save it as UTF-8)")


_BLOCKS = ["p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre", "blockquote"]


def _html_text(html: str) -> str:
    """The text a reader sees: no scripts, styles or head; block elements become paragraphs."""
    soup = BeautifulSoup(html, "html.parser")
    for hidden in soup(["script", "style", "template", "noscript", "head", "svg", "iframe"]):
        hidden.decompose()
    for block in soup.find_all(_BLOCKS):
        block.insert_before("\n\n")
        block.insert_after("\n\n")
    text = soup.get_text()
    # Inside a block, source line breaks are just spaces.
    paragraphs = [" ".join(part.split()) for part in re.split(r"\n\s*\n", text)]
    return "\n\n".join(part for part in paragraphs if part)


def _pdf_text(file: CorpusFile) -> str:
    try:
        return pdf_text(file.data)
    except UnreadablePdf as exc:
        if exc.encrypted:
            raise CorpusError(f"{file.source}: a password-protected PDF; upload an unprotected copy") from exc
        raise CorpusError(f"{file.source}: not a PDF Faultline can read ({exc.cause})") from exc
