"""No data lost to an operator's mistake: `python -m faultline backup` writes the database and the
state beside it to one file, and `restore` reads it back into a fresh state folder (its own
embedded PostgreSQL), where every debate is found again; a restore over a database that holds
Faultline already is refused unless told --replace."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.atlas.builders import debate_with_cards
from tests.conftest import ROOT
from tests.conftest import test_database_url as database_url_of
from tests.factories import PersonaFactory

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def faultline(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "faultline", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def environment(**values) -> dict:
    base = {key: value for key, value in os.environ.items() if not key.startswith("FAULTLINE_")}
    base.pop("DATABASE_URL", None)
    return base | {"PYTHONUNBUFFERED": "1"} | values


def test_a_backup_restored_into_a_fresh_state_folder_has_every_debate(user, tmp_path, state_dir):
    from django.conf import settings
    from django.db import connection

    hand = [PersonaFactory(persona_id=f"kept-{n}", name=f"Kept {n}") for n in range(2)]
    topics = [f"Is backup number {n} worth keeping?" for n in range(3)]
    debates = {str(debate_with_cards(user, topic=topic, personas=hand).pk): topic for topic in topics}
    source_state = tmp_path / "source-state"
    (source_state / "repositories" / "clone").mkdir(parents=True)
    (source_state / "repositories" / "clone" / "README.md").write_text("# A clone\n")
    (source_state / "secret_key").write_text("the-source-secret\n")
    backup_file = tmp_path / "faultline.tar.gz"

    made = faultline(
        "backup",
        str(backup_file),
        env=environment(
            DATABASE_URL=database_url_of(connection.settings_dict, settings.DATABASE_URL),
            FAULTLINE_STATE_DIR=str(source_state),
        ),
    )
    assert made.returncode == 0, made.stdout + made.stderr

    fresh = environment(FAULTLINE_STATE_DIR=str(state_dir), REDIS_URL=settings.REDIS_URL)
    try:
        restored = faultline("restore", str(backup_file), env=fresh)
        assert restored.returncode == 0, restored.stdout + restored.stderr
        listed = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "-c",
                "from debates.models import Debate\n"
                "for debate in Debate.objects.order_by('topic'): print(debate.pk, debate.topic, sep='|')",
            ],
            cwd=ROOT,
            env=fresh,
            capture_output=True,
            text=True,
            check=True,
        )
        again = faultline("restore", str(backup_file), env=fresh)
    finally:
        faultline("stop", env=fresh)

    found = dict(line.split("|", 1) for line in listed.stdout.splitlines() if "|" in line)
    assert found == debates
    assert (state_dir / "secret_key").read_text() == "the-source-secret\n"
    assert (state_dir / "repositories" / "clone" / "README.md").read_text() == "# A clone\n"
    assert again.returncode == 1
    assert "already holds Faultline's tables (3 debates)" in again.stdout and "--replace" in again.stdout
