"""`python -m faultline backup` and `restore`: everything a Faultline keeps, in one file.

A backup is a .tar.gz holding ``database.dump`` (pg_dump's custom format, of the embedded
database or the one DATABASE_URL names: every debate, persona, project, upload, note and memory
lives there), the state that does not (``state/secret_key``, the development secret that signs
sessions and links, when the state folder has one; ``state/repositories/``, the local clones
attached from the web, in development's default FAULTLINE_REPOSITORY_ROOTS), and ``manifest.json``
(when, from which database, how many debates). Redis holds only queues and caches: not kept.

Restore reads one back into the database this configuration uses (the embedded one of a fresh
state folder, started if need be, or DATABASE_URL's) and puts the state files in the state
folder. It refuses a database that already holds Faultline's tables unless told ``--replace``,
so that a restore typed into the wrong shell loses nothing. pg_dump and pg_restore are the
embedded PostgreSQL's own (the pgserver wheel's), else the ones on the PATH.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from ops import embedded

DUMP = "database.dump"
MANIFEST = "manifest.json"
STATE_FILES = ("secret_key",)
STATE_FOLDERS = ("repositories",)
DEBATES_TABLE = "debates_debate"


class BackupError(Exception):
    pass


def postgres_program(name: str) -> str:
    """pg_dump or pg_restore: the embedded server's (a version as new as it), else the PATH's."""
    try:
        import pgserver

        bundled = Path(pgserver.__file__).parent / "pginstall" / "bin" / name
        if bundled.exists():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which(name)
    if not found:
        raise BackupError(f"{name} was not found (neither the embedded PostgreSQL's nor on the PATH)")
    return found


def database_url() -> str:
    return os.environ.get("DATABASE_URL") or embedded.postgres_url()


def _debates(url: str) -> int | None:
    import psycopg

    with psycopg.connect(url, connect_timeout=10) as conn:
        exists = conn.execute("SELECT to_regclass(%s) IS NOT NULL", [DEBATES_TABLE]).fetchone()[0]
        return conn.execute(f"SELECT count(*) FROM {DEBATES_TABLE}").fetchone()[0] if exists else None


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {(result.stderr or result.stdout).strip()[-2000:]}")


def backup(path: Path) -> dict:
    """Write a backup to ``path``; its manifest."""
    url = database_url()
    state = embedded.state_dir()
    debates = _debates(url)
    with tempfile.TemporaryDirectory(prefix="faultline-backup-") as work:
        dump = Path(work) / DUMP
        _run([postgres_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={dump}", url])
        manifest = {
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "database": url.rsplit("/", 1)[-1].split("?", 1)[0],
            "debates": debates,
            "state": [name for name in (*STATE_FILES, *STATE_FOLDERS) if (state / name).exists()],
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        with tarfile.open(partial, "w:gz") as archive:
            archive.add(dump, DUMP)
            for name in manifest["state"]:
                archive.add(state / name, f"state/{name}")
            data = json.dumps(manifest, indent=2).encode()
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        partial.replace(path)  # a backup cut short is never taken for a whole one
    return manifest


def restore(path: Path, *, replace: bool = False) -> dict:
    """Read the backup at ``path`` back; its manifest. BackupError if the database already holds
    Faultline's tables (and not ``replace``), or the file is not a backup."""
    url = database_url()
    existing = _debates(url)
    if existing is not None and not replace:
        raise BackupError(
            f"the database already holds Faultline's tables ({existing} debates): restore into a fresh "
            "state folder or an empty database, or add --replace to overwrite it"
        )
    state = embedded.state_dir()
    with tempfile.TemporaryDirectory(prefix="faultline-restore-") as work, tarfile.open(path, "r:gz") as archive:
        names = archive.getnames()
        if DUMP not in names or MANIFEST not in names:
            raise BackupError(f"{path} is not a Faultline backup (no {DUMP} or {MANIFEST} in it)")
        archive.extractall(work, filter="data")
        manifest = json.loads((Path(work) / MANIFEST).read_text())
        _run(
            [
                postgres_program("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                f"--dbname={url}",
                str(Path(work) / DUMP),
            ]
        )
        for name in manifest.get("state", []):
            source, target = Path(work) / "state" / name, state / name
            if source.is_dir():
                shutil.copytree(source, target, dirs_exist_ok=True)
            elif source.is_file():
                shutil.copy2(source, target)
    return manifest
