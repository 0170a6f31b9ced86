import json

import pytest
from django.core.management import CommandError, call_command

from debates.models import Debate

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_a_debate_and_prints_transcript_and_cards(scripted_api, personas, tmp_path, capsys):
    scripted_api(dispute="persistent")
    trace = tmp_path / "trace.jsonl"

    call_command(
        "rundebate",
        "--personas",
        "ada hardmoney,BRAM MACRO,cleo-central",
        "--topic",
        "Is hard money the future?",
        "--max-turns",
        "12",
        "--trace",
        str(trace),
    )

    out = capsys.readouterr().out
    assert "Ada Hardmoney (opening)" in out and "Bram Macro (closing)" in out
    assert "CRUX CARD" in out and "Where it landed: " in out and "Regime:" not in out
    assert Debate.objects.get().status == Debate.Status.COMPLETED
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    persona_calls = [line for line in lines if line["role"] == "persona"]
    assert persona_calls and all(line["persona"] and line["phase"] for line in persona_calls)
    first = persona_calls[0]
    assert "You are" in first["system"][0] and first["messages"][0]["role"] == "user"
    assert first["input_tokens"] > 0 and first["output_tokens"] > 0
    assert {"extraction", "judging", "synthesis"} <= {line["role"] for line in lines}


def test_an_unknown_persona_lists_the_known_ones(personas):
    with pytest.raises(
        CommandError, match="unknown persona 'Nobody'. Known personas: Ada Hardmoney, Bram Macro, Cleo Central"
    ):
        call_command("rundebate", "--personas", "Ada Hardmoney,Nobody", "--topic", "x")


def test_a_failed_debate_exits_non_zero_with_the_reason(scripted_api, personas, settings):
    api, _ = scripted_api()
    api.responder = lambda body, call: __import__("devtools.fake_messages_api", fromlist=["Reply"]).Reply.overloaded()

    with pytest.raises(CommandError, match=r"the debate failed: .*overloaded \(HTTP 529\)"):
        call_command("rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?")


def test_it_prints_where_the_debate_landed_by_its_label_not_its_key(scripted_api, personas, capsys):
    scripted_api(dispute="quibbles")  # no room opens, and the final answers stay YES against NO

    call_command(
        "rundebate",
        "--personas",
        "Ada Hardmoney,Bram Macro,Cleo Central",
        "--topic",
        "Is hard money the future?",
        "--max-turns",
        "15",
    )

    out = capsys.readouterr().out
    assert Debate.objects.get().results["regime"] == "disagreement_no_crux"
    assert "Where it landed: Disagreement, no crux isolated: their final answers split" in out
    assert "disagreement_no_crux" not in out
    assert "Rests on no crux card (no crux room produced one)" in out


def test_a_rerun_is_linked_to_the_users_own_debate_and_a_foreign_id_is_one_line(scripted_api, personas):
    scripted_api(dispute="none")
    base = ["rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "4"]
    call_command(*base, "--user", "ana")
    first = Debate.objects.get()

    call_command(*base[:2], "Ada Hardmoney,Cleo Central", *base[3:], "--user", "ana", "--rerun-of", str(first.pk))
    assert Debate.objects.exclude(pk=first.pk).get().rerun_of == first

    with pytest.raises(CommandError, match=rf"^no debate with id {first.pk} \(for user bo\)$"):
        call_command(*base, "--user", "bo", "--rerun-of", str(first.pk))
    with pytest.raises(CommandError, match=r"^no debate with id nonsense"):
        call_command(*base, "--user", "ana", "--rerun-of", "nonsense")
    assert Debate.objects.count() == 2  # a refused re-run leaves nothing behind


def test_it_says_on_stderr_what_the_debate_is_doing_and_ends_on_the_verdict_sentence(scripted_api, personas, capsys):
    scripted_api(dispute="none", latency=1.0)  # each call a second: every opening is seen being waited for

    call_command("rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "2")

    captured = capsys.readouterr()
    steps = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert any("] Opening statements: " in line for line in steps), captured.err
    assert any("] Closing statements: " in line for line in steps), captured.err
    debate = Debate.objects.get()
    from debates.regime import verdict_sentence

    assert f"Where it landed: {verdict_sentence(results=debate.results, status=debate.status)}" in captured.out
