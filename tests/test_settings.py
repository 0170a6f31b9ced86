import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts manage.py with production settings

ROOT = Path(__file__).resolve().parent.parent


def manage(*args, **env):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_the_deploy_check():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        FAULTLINE_ENV="production",
        SECRET_KEY="x" * 20 + "a-long-random-production-secret-key-0123456789",
        ALLOWED_HOSTS="faultline.example.com",
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", FAULTLINE_ENV="production", SECRET_KEY="")

    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_spend_cap_that_is_not_an_amount_is_refused_with_its_name():
    result = manage("check", FAULTLINE_DAILY_SPEND_USD="five dollars")

    assert result.returncode != 0
    assert "FAULTLINE_DAILY_SPEND_USD must be an amount in USD, like 5 or 12.50" in result.stderr
