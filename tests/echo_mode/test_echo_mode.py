"""A mode added from the test tree: one folder (behaviour, printer) and one spec row, run end to
end through the setup page and the worker's task, and through ``rundebate``."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from debates.models import Debate, Message
from debates.services import lifecycle
from gateways.llm.models import ModelCall
from orchestration.tasks import run_debate
from tests.echo_mode.conftest import ECHO_MODEL

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_setup_page_offers_it_and_the_worker_runs_it_to_its_page(
    echo_api, owner_client, deck, personas, monkeypatch
):
    queued: list[str] = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))

    page = owner_client.get("/debates/new/").content.decode()
    started = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [p.pk for p in personas[:3]],
            "topic": "Is hard money the future?",
            "length": "short",
            "mode": "echo",
        },
    )
    debate = Debate.objects.get()
    run_debate.apply(args=[queued[0]])  # the task a worker runs, here in this process

    assert '<input type="radio" name="mode" value="echo"' in page and "Echo (a test mode)" in page
    assert started.status_code == 302 and started["Location"] == f"/debates/{debate.id}/"
    debate.refresh_from_db()
    assert (debate.mode, debate.status) == ("echo", Debate.Status.COMPLETED), debate.failure_reason
    assert debate.results == {"mode": "echo", "status": "completed", "echoes": 3}
    said = list(Message.objects.filter(debate=debate).order_by("turn").values_list("text", flat=True))
    assert said == [f"{name} on: Is hard money the future?" for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]
    calls = ModelCall.objects.filter(debate_id=debate.id)
    assert set(calls.values_list("role", "model")) == {("echo", ECHO_MODEL)}
    live = owner_client.get(f"/debates/{debate.id}/").content.decode()
    for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central"):
        assert f"{name} on: Is hard money the future?" in live
    results = owner_client.get(f"/debates/{debate.id}/results/")
    assert results.status_code == 200


def test_rundebate_runs_it_and_prints_with_its_own_printer(echo_api, personas, capsys):
    call_command("rundebate", "--mode", "echo", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold or bonds?")

    out = capsys.readouterr().out
    assert "[  1] Ada Hardmoney (opening): Ada Hardmoney on: Gold or bonds?" in out
    assert "[  2] Bram Macro (opening): Bram Macro on: Gold or bonds?" in out
    assert out.rstrip().endswith("Echoes: 2\nStatus: completed")


def test_without_its_row_the_mode_is_unknown(personas, capsys):
    with pytest.raises(CommandError, match="invalid choice: 'echo'"):
        call_command("rundebate", "--mode", "echo", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?")
