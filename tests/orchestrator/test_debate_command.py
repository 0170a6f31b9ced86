"""``manage.py debate pause|continue|stop ID`` acts on a debate that ``rundebate`` runs in another
process (the run notices at its next turn boundary), and refuses what it cannot do with one line on
stderr and a non-zero exit. ``rundebate --pause-after-round`` pauses at each round's end in every
mode, and the debate carries on from the CLI or on a worker."""

import os
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from debates.models import Debate, Event, Message
from debates.payloads import EventKind, parse_payload
from tests.conftest import test_database_url as database_url_for
from tests.support.command_line import command_line
from tests.support.fake_anthropic import persona_calls_held_after

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent.parent
HAND = "Ada Hardmoney,Bram Macro,Cleo Central"


def manage(*args: str, api=None) -> subprocess.Popen:
    """A manage.py command in its own process, on the test database and broker."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for(connection.settings_dict, django_settings.DATABASE_URL),
        "REDIS_URL": django_settings.REDIS_URL,
        "DJANGO_SETTINGS_MODULE": "faultline.settings",
        "PYTHONUNBUFFERED": "1",
    }
    if api is not None:
        # A held call (persona_calls_held_after) waits as long as a command takes to start on a loaded machine.
        env.update(
            FAULTLINE_LLM="anthropic",
            ANTHROPIC_API_KEY="test-key",
            ANTHROPIC_BASE_URL=api.url,
            ANTHROPIC_TIMEOUT_SECONDS="600",
        )
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(process: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def wait_until(condition, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.1)


def said(debate) -> int:
    return Message.objects.filter(debate=debate, room__isnull=True, status=Message.Status.COMPLETE).count()


def pauses(debate) -> list[tuple[str, int]]:
    events = Event.objects.filter(debate=debate, kind=EventKind.DEBATE_PAUSED).order_by("seq")
    return [(p.reason, p.round) for p in (parse_payload(e.kind, e.payload) for e in events)]


@contextmanager
def running_debate(api, *extra: str):
    """A dialogue rundebate (3 openings, 12 turns, 3 closings) runs in another process, for user
    'writer', held at its third persona call while inside (its first two turns said)."""
    with persona_calls_held_after(api, 2):
        run = manage("rundebate", "--personas", HAND, "--topic", "Is gold money?", "--user", "writer", *extra, api=api)
        wait_until(lambda: Debate.objects.exists() or run.poll() is not None, "the debate to be created")
        debate = Debate.objects.get()
        wait_until(lambda: said(debate) >= 2 or run.poll() is not None, "two turns")
        assert run.poll() is None, run.communicate()
        yield run, debate


@pytest.fixture
def api(scripted_api, personas):
    api, _ = scripted_api(dispute="none")
    return api


def test_a_debate_rundebate_runs_elsewhere_is_paused_then_continued_on_a_worker(api, celery_worker_process, capsys):
    # The commands run in this process (the stop test below runs one in a process of its own).
    with running_debate(api) as (run, debate):
        code, out, err = command_line(capsys, "debate", "pause", str(debate.id), "--user", "writer")
    assert (code, err) == (0, "") and out.strip() == f"Debate {debate.id}: pausing after the current turn."

    code, out, err = finished(run)
    debate.refresh_from_db()
    assert code == 0 and debate.status == Debate.Status.PAUSED
    assert f"Debate {debate.id} is paused: continue it on the site, with `manage.py debate continue" in err
    assert pauses(debate) == [("requested", 0)]
    before = said(debate)

    code, out, err = command_line(capsys, "debate", "continue", str(debate.id), "--user", "writer")
    assert (code, err) == (0, "") and "continuing where it paused" in out

    wait_until(lambda: Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED, "the worker to finish it")
    turns = list(
        Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("turn", flat=True)
    )
    assert turns == list(range(1, 19)) and before < 18  # it carried on where it paused, nothing said twice


def test_a_debate_rundebate_runs_elsewhere_is_stopped(api):
    with running_debate(api) as (run, debate):
        code, out, err = finished(manage("debate", "stop", str(debate.id), "--user", "writer"))
    assert (code, err) == (0, "") and "stopping after the current turn" in out

    code, out, err = finished(run)
    debate.refresh_from_db()
    assert code == 0 and debate.status == Debate.Status.STOPPED and said(debate) < 18
    assert not debate.messages.filter(kind=Message.Kind.CLOSING).exists()
    assert out.strip().endswith("Status: stopped")


def one_line_refusal(*args: str, capsys=None) -> str:
    """What ``manage.py debate <args>`` says on stderr; in a manage.py process of its own, or with
    ``capsys`` in this process (tests/support/command_line.py), which spares a Django start-up."""
    code, out, err = command_line(capsys, "debate", *args) if capsys else finished(manage("debate", *args))
    assert code != 0 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_a_bad_id_another_users_debate_and_a_finished_one_get_one_line(personas, new_debate, capsys):
    User = get_user_model()
    writer, other = User.objects.create_user("writer"), User.objects.create_user("other")
    theirs = new_debate()
    Debate.objects.filter(pk=theirs.pk).update(owner=other)
    done = new_debate()
    Debate.objects.filter(pk=done.pk).update(owner=writer, status=Debate.Status.COMPLETED)

    assert one_line_refusal("pause", "not-an-id", "--user", "writer") == (
        "CommandError: no debate with id not-an-id (for user writer)"
    )
    missing = uuid.uuid4()
    assert one_line_refusal("stop", str(missing), "--user", "writer", capsys=capsys) == (
        f"CommandError: no debate with id {missing} (for user writer)"
    )
    # Another user's debate is refused as if it did not exist.
    assert one_line_refusal("stop", str(theirs.id), "--user", "writer", capsys=capsys) == (
        f"CommandError: no debate with id {theirs.id} (for user writer)"
    )
    assert one_line_refusal("stop", str(done.id), "--user", "writer", capsys=capsys) == (
        f"CommandError: cannot stop debate {done.id}: This debate is completed; there is nothing to stop."
    )
    Debate.objects.filter(pk=theirs.pk).update(status=Debate.Status.STOPPED)
    assert Debate.objects.get(pk=theirs.pk).stop_requested is False  # the refused stop changed nothing


@pytest.mark.parametrize(
    ("status", "action", "refusal"),
    [
        (Debate.Status.COMPLETED, "pause", "Only a debate that is running can be paused."),
        (Debate.Status.PAUSED, "pause", "Only a debate that is running can be paused."),
        (Debate.Status.RUNNING, "continue", "This debate is not paused; there is nothing to continue."),
        (Debate.Status.FAILED, "continue", "This debate is not paused; there is nothing to continue."),
        (Debate.Status.FAILED, "stop", "This debate is failed; there is nothing to stop."),
    ],
)
def test_an_impossible_transition_is_refused_and_changes_nothing(personas, new_debate, status, action, refusal):
    writer = get_user_model().objects.create_user("writer")
    debate = new_debate()
    Debate.objects.filter(pk=debate.pk).update(owner=writer, status=status)

    with pytest.raises(CommandError, match=f"^cannot {action} debate {debate.id}: {refusal}$"):
        call_command("debate", action, str(debate.id), "--user", "writer")

    debate.refresh_from_db()
    assert (debate.status, debate.pause_requested, debate.stop_requested) == (status, False, False)
    assert not Event.objects.filter(debate=debate).exists()


def test_auto_continue_goes_only_with_continue(personas, new_debate):
    with pytest.raises(CommandError, match="^--auto-continue goes with continue$"):
        call_command("debate", "pause", str(new_debate().id), "--auto-continue")


# ── rundebate --pause-after-round ──────────────────────────────────────────────────────────────


def test_a_dialogue_pauses_after_each_aspect_and_continues_to_the_end(scripted_api, personas, capsys):
    scripted_api(dispute="none")  # two aspects: a round each

    call_command("rundebate", "--personas", HAND, "--topic", "Is gold money?", "--pause-after-round", "--user", "w")

    debate = Debate.objects.get()
    assert debate.status == Debate.Status.PAUSED and debate.pause_after_round
    assert pauses(debate) == [("round", 1)]
    # The openings, then the first aspect's six dialogue turns: the second aspect has not begun.
    aspects = list(debate.messages.filter(kind__in=["key_argument", "reply"]).values_list("aspect_index", flat=True))
    assert len(aspects) == 6 and set(aspects) == {0}
    assert "is paused: continue it on the site" in capsys.readouterr().err

    call_command("rundebate", "--resume", str(debate.id))

    debate.refresh_from_db()
    assert debate.status == Debate.Status.COMPLETED and pauses(debate) == [("round", 1)]  # the last round: no pause
    turns = list(
        Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("turn", flat=True)
    )
    assert turns == list(range(1, 19))


def test_a_graph_debate_pauses_after_each_aspect_with_its_map_drawn(scripted_api, personas):
    scripted_api(dispute="none")

    call_command(
        "rundebate", "--mode", "graph", "--personas", HAND, "--topic", "Is gold money?", "--pause-after-round",
        "--user", "w",
    )  # fmt: skip

    debate = Debate.objects.get()
    assert debate.status == Debate.Status.PAUSED and pauses(debate) == [("round", 1)]
    assert Event.objects.filter(debate=debate, kind="graph_updated").exists()

    call_command("rundebate", "--resume", str(debate.id))

    debate.refresh_from_db()
    assert debate.status == Debate.Status.COMPLETED and debate.results["graph"]
    turns = list(
        Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("turn", flat=True)
    )
    assert turns == list(range(1, 19))


def test_a_collaboration_pauses_after_the_drafts(scripted_api, personas):
    scripted_api()

    call_command(
        "rundebate", "--mode", "collaborate", "--topic", "Design a cache", "--pause-after-round", "--user", "w"
    )

    debate = Debate.objects.get()
    assert debate.status == Debate.Status.PAUSED and pauses(debate) == [("round", 1)]
    assert list(debate.messages.order_by("turn").values_list("kind", flat=True)) == ["draft", "draft"]

    call_command("rundebate", "--resume", str(debate.id))

    debate.refresh_from_db()
    assert debate.status == Debate.Status.COMPLETED
    assert list(debate.messages.order_by("turn").values_list("kind", flat=True)) == [
        "draft",
        "draft",
        "revision",
        "revision",
        "artifact",
    ]


def test_pausing_after_each_round_and_continuing_automatically_is_refused(personas):
    with pytest.raises(CommandError, match="Pick either pausing after each round or continuing automatically"):
        call_command(
            "rundebate", "--personas", HAND, "--topic", "x", "--pause-after-round", "--auto-continue", "--user", "w"
        )
    assert not Debate.objects.exists()


@pytest.mark.parametrize("rounds", ["0", "11"])
def test_rounds_outside_one_to_ten_are_refused(personas, rounds):
    with pytest.raises(CommandError, match="^Pick between 1 and 10 rounds.$"):
        call_command("rundebate", "--mode", "analyst-critic", "--topic", "x", "--max-rounds", rounds, "--user", "w")
    assert not Debate.objects.exists()
