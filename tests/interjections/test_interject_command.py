"""``manage.py interject`` against a debate that ``manage.py rundebate`` runs in another process:
the running loop picks the interjection up from the database and the persona it is addressed to
answers it next. Bad input (an unknown id, a finished debate, an empty text) gets one line on
stderr and a non-zero exit, never a traceback."""

import os
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection

from debates.models import Debate, Interjection, Message
from devtools.fake_messages_api import FakeMessagesAPI
from devtools.scripted_debate import ANSWER_OPENING, DebateScript
from tests import conftest as suite
from tests.support.command_line import command_line
from tests.support.fake_anthropic import persona_calls_held_after

pytestmark = pytest.mark.django_db(transaction=True)


def _env(api_url: str = "") -> dict:
    return {
        **os.environ,
        "DATABASE_URL": suite.test_database_url(connection.settings_dict, settings.DATABASE_URL),
        "REDIS_URL": settings.REDIS_URL,
        "FAULTLINE_LLM": "anthropic",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": api_url or "http://127.0.0.1:9",
        "ANTHROPIC_TIMEOUT_SECONDS": "600",  # longer than a call held by persona_calls_held_after()
        "PYTHONUNBUFFERED": "1",
    }


def _manage(*args: str, api_url: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=suite.ROOT,
        env=_env(api_url),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_an_interjection_from_the_command_line_reaches_a_debate_rundebate_runs(personas, capsys):
    script = DebateScript(dispute="none")
    with FakeMessagesAPI(responder=script.respond) as api:
        names = ",".join(p.name for p in personas)
        run = None
        try:
            # The debate waits at its third persona call until the interjection is posted.
            with persona_calls_held_after(api, 2):
                run = subprocess.Popen(
                    [sys.executable, "manage.py", "rundebate", "--personas", names, "--topic", "Is gold money?"]
                    + ["--max-turns", "10"],
                    cwd=suite.ROOT,
                    env=_env(api.url),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
                deadline = time.monotonic() + 120
                debate = None
                while time.monotonic() < deadline and run.poll() is None:
                    debate = Debate.objects.filter(topic="Is gold money?").first()
                    if debate and Message.objects.filter(debate=debate, status="complete").count() >= 2:
                        break
                    time.sleep(0.05)
                assert debate is not None and run.poll() is None, run.communicate() if run.poll() is not None else ""

                # The command runs in this process (a bad-input case below runs one of its own).
                code, out, err = command_line(
                    capsys, "interject", str(debate.id), "What would make you sell?", "--to", "Bram"
                )

            assert code == 0, err
            assert out.startswith(f"Posted question to Bram Macro into debate {debate.id}")
            out, err = run.communicate(timeout=180)
        finally:
            if run is not None and run.poll() is None:
                run.kill()
    assert run.returncode == 0, err
    interjection = Interjection.objects.get(debate=debate)
    answer = interjection.answer
    assert answer is not None and answer.persona.name == "Bram Macro" and answer.kind == Message.Kind.ANSWER
    assert answer.text.startswith(ANSWER_OPENING)
    # Nobody but the turn already under way spoke between the post and the answer.
    said_after = Message.objects.filter(debate=debate, room__isnull=True, created_at__gt=interjection.created_at)
    assert answer.turn in list(said_after.order_by("turn").values_list("turn", flat=True))[:2]
    assert "What would make you sell?" in out  # the transcript rundebate prints shows it


# The first case runs a real manage.py process; the others run the same command line in this
# process (tests/support/command_line.py), which spares a Django start-up each.
@pytest.mark.parametrize(
    ("args", "line", "in_a_process"),
    [
        (["not-a-uuid", "Hello"], "no debate with id not-a-uuid", True),
        (["00000000-0000-0000-0000-000000000000", "Hello"], "no debate with id 00000000-0000-0000-0000-000000000000", False),
        (["{id}", "   "], "Type what you want to say to the debate.", False),
        (["{id}", "Hello", "--to", "Nobody"], "No one in this debate is called 'Nobody'", False),
        (["{finished}", "Hello"], "This debate has finished; it takes no more interjections.", False),
    ],
)  # fmt: skip
def test_bad_input_gets_one_line_and_a_non_zero_exit(new_debate, capsys, args, line, in_a_process):
    running = new_debate()
    finished = new_debate()
    Debate.objects.filter(pk=finished.pk).update(status=Debate.Status.COMPLETED)
    args = [a.format(id=running.id, finished=finished.id) for a in args]

    if in_a_process:
        result = _manage("interject", *args)
        code, err = result.returncode, result.stderr
    else:
        code, _, err = command_line(capsys, "interject", *args)

    assert code != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and line in lines[0], err
    assert "Traceback" not in err
    assert not Interjection.objects.exists()
