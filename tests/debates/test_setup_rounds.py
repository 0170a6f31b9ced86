"""The setup page sets what the command line sets: the rounds of a mode whose budget is rounds
(1 to 10, stored as the debate's budget) and the pause after each round."""

import re

import pytest

from debates.models import Debate

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(monkeypatch):
    """Record debate_start's calls to the worker instead of queueing real tasks."""
    queued = []
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))
    return queued


def post(client, deck, personas, mode="analyst_critic", **fields):
    form = {"deck": deck.pk, "personas": [p.pk for p in personas[:2]], "topic": "Index funds?", "length": "short"}
    return client.post("/debates/new/", {**form, "mode": mode, **fields})


def test_it_offers_the_rounds_from_the_mode_table(owner_client, deck, personas):
    page = owner_client.get("/debates/new/").content.decode()

    assert 'name="rounds"' in page and 'min="1"' in page and 'max="10"' in page
    assert "Analyst vs Critic: rounds before the synthesis without consensus, 1 to 10 (empty: 5)" in page
    assert 'name="pause_after_round"' in page


def test_the_rounds_show_only_for_a_mode_whose_budget_is_rounds(owner_client, deck, personas):
    def field_hidden(page: str, name: str) -> bool:
        # The field's own <div class="field" ...> opening tag: the last one before its input.
        opening = re.findall(r'<div class="field"[^>]*>', page.split(f'name="{name}"', 1)[0])[-1]
        assert 'data-for-modes="analyst_critic"' in opening
        return " hidden" in opening

    dialogue = owner_client.get("/debates/new/").content.decode()  # the default mode
    assert field_hidden(dialogue, "rounds") and field_hidden(dialogue, "auto_continue")
    refused = post(owner_client, deck, personas, mode="analyst_critic", rounds="11").content.decode()
    assert not field_hidden(refused, "rounds") and not field_hidden(refused, "auto_continue")


def test_the_rounds_chosen_are_the_debates_budget(owner_client, deck, personas, started):
    response = post(owner_client, deck, personas, rounds="7")

    debate = Debate.objects.get()
    assert response.status_code == 302 and (debate.mode, debate.max_turns) == ("analyst_critic", 7)


def test_no_rounds_chosen_is_the_modes_setting(owner_client, deck, personas, started, settings):
    settings.FAULTLINE_ANALYST_MAX_ROUNDS = 4

    post(owner_client, deck, personas, rounds="")

    assert Debate.objects.get().max_turns == 4


@pytest.mark.parametrize("rounds", ["0", "11", "-3", "three", "2.5"])
def test_rounds_outside_one_to_ten_are_refused_and_nothing_starts(owner_client, deck, personas, started, rounds):
    response = post(owner_client, deck, personas, rounds=rounds)

    assert response.status_code == 200 and not Debate.objects.exists() and started == []
    page = response.content.decode()
    assert "Pick between 1 and 10 rounds." in page or "whole number from 1 to 10" in page


def test_a_dialogue_keeps_its_length_whatever_the_rounds(owner_client, deck, personas, started):
    post(owner_client, deck, personas, mode="dialogue", rounds="3")

    assert Debate.objects.get().max_turns == Debate.TURNS_FOR_LENGTH["short"]


def test_pause_after_round_is_stored(owner_client, deck, personas, started):
    post(owner_client, deck, personas, mode="dialogue", pause_after_round="on")

    assert Debate.objects.get().pause_after_round is True


def test_pausing_and_continuing_automatically_at_once_is_refused(owner_client, deck, personas, started):
    response = post(owner_client, deck, personas, auto_continue="on", pause_after_round="on")

    assert response.status_code == 200 and not Debate.objects.exists()
    assert "Pick either pausing after each round or continuing automatically" in response.content.decode()


def test_ask_again_keeps_the_rounds_and_the_pause(owner_client, deck, personas, started):
    post(owner_client, deck, personas, rounds="6")
    debate = Debate.objects.get()
    Debate.objects.filter(pk=debate.pk).update(pause_after_round=True)

    location = owner_client.get(f"/debates/{debate.id}/ask-again/")["Location"]

    assert "rounds=6" in location and "pause_after_round=1" in location
