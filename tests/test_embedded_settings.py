"""The embedded PostgreSQL runs with shared buffers sized for long-term memory's HNSW indexes."""

import os

import pytest
from django.db import connection

from ops import embedded


def test_shared_buffers_are_a_quarter_of_memory_at_most_4_gb(monkeypatch):
    monkeypatch.delenv("FAULTLINE_PG_SHARED_BUFFERS", raising=False)
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20

    assert embedded.server_settings()["shared_buffers"] == f"{min(memory_mb // 4, 4096)}MB"


def test_an_environment_variable_overrides_them(monkeypatch):
    monkeypatch.setenv("FAULTLINE_PG_SHARED_BUFFERS", "256MB")

    assert embedded.server_settings()["shared_buffers"] == "256MB"


@pytest.mark.django_db
@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="a server of one's own is configured by its owner")
def test_the_running_embedded_server_has_them():
    wanted = embedded.server_settings()
    with connection.cursor() as cursor:
        for name in ("shared_buffers", "effective_cache_size", "maintenance_work_mem"):
            cursor.execute("SELECT pg_size_bytes(current_setting(%s)) = pg_size_bytes(%s)", [name, wanted[name]])
            assert cursor.fetchone()[0], name
