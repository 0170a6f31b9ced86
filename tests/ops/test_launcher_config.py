"""The launcher reads .env like the settings do, and restarts children that die (fast tests;
the end-to-end crash of a real worker is in test_launcher_restarts.py)."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ops.launcher import WORKER_NICE, Child, LaunchError, RestartPolicy
from tests.support.build_context import copy_build_context

ROOT = Path(__file__).resolve().parents[2]


def launcher_config(app: Path, **environment) -> list[str]:
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("FAULTLINE_") and key not in ("DATABASE_URL", "REDIS_URL")
    }
    shown = subprocess.run(
        [sys.executable, "-m", "faultline", "config"],
        cwd=app,
        env={**clean, **environment},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.splitlines()


def test_dotenv_values_reach_the_launcher_and_the_real_environment_wins(tmp_path):
    app = copy_build_context(ROOT, tmp_path / "app")
    (app / ".env").write_text(
        "FAULTLINE_HOST=0.0.0.0\n"
        "FAULTLINE_PORT=8123\n"
        "FAULTLINE_WORKER_CONCURRENCY=3\n"
        "FAULTLINE_WORKER_NICE=3\n"
        f"FAULTLINE_STATE_DIR={tmp_path / 'state-from-dotenv'}\n"
        "DATABASE_URL=postgres://faultline:s3cret@db.internal:5432/faultline\n"
        "REDIS_URL=redis://cache.internal:6379/2\n"
    )

    shown = launcher_config(app, FAULTLINE_WORKER_CONCURRENCY="5")

    assert shown == [
        "web:      http://0.0.0.0:8123/  (1 process)",
        "worker:   5 debates at once, nice 3",
        "database: postgres://faultline:***@db.internal:5432/faultline",
        "redis:    redis://cache.internal:6379/2",
        f"state:    {tmp_path / 'state-from-dotenv'}",
    ]


def test_without_dotenv_it_uses_the_embedded_services_and_the_defaults(tmp_path):
    app = copy_build_context(ROOT, tmp_path / "app")

    shown = launcher_config(app)

    assert shown[:4] == [
        "web:      http://127.0.0.1:8000/  (1 process)",
        f"worker:   8 debates at once, nice {WORKER_NICE}",
        "database: embedded PostgreSQL",
        "redis:    embedded Redis",
    ]
    assert shown[4] == f"state:    {app / '.faultline'}"


def test_a_database_url_from_dotenv_is_not_replaced_by_the_embedded_one(tmp_path):
    # What `run` does with the services, on the environment that .env filled in.
    app = copy_build_context(ROOT, tmp_path / "app")
    (app / ".env").write_text("DATABASE_URL=postgres://u:p@db.internal/x\nREDIS_URL=redis://cache.internal/0\n")
    script = (
        "import os; from ops import launcher; launcher.read_dotenv(); env = dict(os.environ); "
        "print(launcher.prepare_services(env), env['DATABASE_URL'], env['REDIS_URL'])"
    )
    clean = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}

    shown = subprocess.run(
        [sys.executable, "-c", script],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=60,
        env={**clean, "FAULTLINE_STATE_DIR": str(tmp_path / "state")},
    )

    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split()[-2:] == ["postgres://u:p@db.internal/x", "redis://cache.internal/0"]
    assert "[]" in shown.stdout  # nothing embedded was started
    assert not (tmp_path / "state" / "pgdata").exists()


def test_restart_pauses_double_up_to_the_cap():
    policy = RestartPolicy(first_delay=1, max_delay=30)

    assert [policy.delay(restart) for restart in range(1, 9)] == [1, 2, 4, 8, 16, 30, 30, 30]


def dying_child(policy: RestartPolicy, exit_code: int = 3, lifetime: float = 0.0) -> Child:
    return Child(
        "worker", [sys.executable, "-c", f"import sys, time; time.sleep({lifetime}); sys.exit({exit_code})"], policy
    )


def supervise_until(child: Child, restarts: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while child.restarts < restarts or child.restart_at is not None:
        assert time.monotonic() < deadline
        child.supervise(dict(os.environ))
        time.sleep(0.01)


def supervise_for(child: Child, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        child.supervise(dict(os.environ))
        time.sleep(0.01)


def test_a_child_that_keeps_dying_is_restarted_after_growing_pauses(capsys):
    child = dying_child(RestartPolicy(first_delay=0.05, max_delay=0.2, stable_after=60))
    child.start(dict(os.environ))

    supervise_until(child, restarts=4)
    child.stop()

    said = [line.split("] ", 1)[1] for line in capsys.readouterr().out.splitlines() if "exited" in line]
    assert said == [
        "worker exited unexpectedly (exit 3); restarting in 0.05 s (restart 1)",
        "worker exited unexpectedly (exit 3); restarting in 0.1 s (restart 2)",
        "worker exited unexpectedly (exit 3); restarting in 0.2 s (restart 3)",
        "worker exited unexpectedly (exit 3); restarting in 0.2 s (restart 4)",
    ]


def test_a_child_that_ran_stably_starts_counting_afresh(capsys):
    child = dying_child(RestartPolicy(first_delay=0.05, stable_after=0.2), lifetime=0.3)
    child.start(dict(os.environ))

    supervise_for(child, seconds=1.5)  # dies every 0.3 s, each time after running stably
    child.stop()

    said = [line for line in capsys.readouterr().out.splitlines() if "exited" in line]
    assert len(said) >= 2 and all(line.endswith("restarting in 0.05 s (restart 1)") for line in said)


def test_a_web_server_that_cannot_stay_up_stops_the_launcher():
    child = dying_child(RestartPolicy(first_delay=0.01, stable_after=60, give_up_after=2), exit_code=1)
    child.name = "web"
    child.start(dict(os.environ))

    with pytest.raises(LaunchError, match=r"web exited unexpectedly \(exit 1\) 3 times in a row.*giving up"):
        supervise_until(child, restarts=10)
