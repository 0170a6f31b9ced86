"""Every test database is a copy of one migrated template, so migrations run once per change of
them, not once per pytest-xdist worker and run.

Applying every migration to an empty database takes ~11 s of CPU (Django renders the models'
state again at each step); copying a database is PostgreSQL's CREATE DATABASE ... TEMPLATE, well
under a second. The template is named after a digest of every migration file and of the locked
dependencies (a new Django or django-axes brings migrations of its own), made by whichever worker
comes first while the others wait on a lock, and kept on the embedded server for the next run; a
template of other migrations is dropped. Django then creates each worker's test database from it
(settings' TEST TEMPLATE) and finds nothing left to migrate.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from ops import embedded

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "test_template_"


def migrations_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")) + [ROOT / "requirements" / "test.txt"]:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _url(base: str, name: str) -> str:
    return urlunsplit(urlsplit(base)._replace(path=f"/{name}"))


def _databases(admin: psycopg.Connection) -> set[str]:
    return {row[0] for row in admin.execute("SELECT datname FROM pg_database")}


def _template(base_url: str) -> str:
    """The migrated template's name, made first if it is missing."""
    name = PREFIX + migrations_digest()
    lock_path = embedded.state_dir() / "test-template.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other workers wait here while one migrates
        with psycopg.connect(base_url, autocommit=True) as admin:
            present = _databases(admin)
            for stale in present - {name}:
                if stale.startswith(PREFIX):
                    admin.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
            if name not in present:
                building = f"{name}_building"
                admin.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                admin.execute(f'CREATE DATABASE "{building}"')
                migrated = subprocess.run(
                    [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
                    cwd=ROOT,
                    env={**os.environ, "DATABASE_URL": _url(base_url, building)},
                    capture_output=True,
                    text=True,
                )
                if migrated.returncode != 0:
                    raise RuntimeError(f"migrating the test template failed:\n{migrated.stderr}")
                # Renamed once whole: a run stopped while migrating leaves no half template.
                admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    return name


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    from django.conf import settings

    database = settings.DATABASES["default"]
    database.setdefault("TEST", {})["TEMPLATE"] = _template(settings.DATABASE_URL)
