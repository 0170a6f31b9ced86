"""Taking a side on a crux (the debate's question is crux 0, the cards 1, 2, ... as the results page
numbers them): in the browser's form and with ``manage.py stand``; history kept; the owner and
members see names, anyone else counts; people's words never enter the debate's log."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from debates.models import Event, PersonSide
from debates.services.lifecycle import debate_share
from debates.services.members import debate_member_add, debate_member_remove
from debates.services.sides import side_take
from tests.team.conftest import client_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _take(client, debate, **data):
    return client.post(reverse("debate_side_take", args=[debate.id]), data, HTTP_HX_REQUEST="true")


def test_a_member_takes_a_side_and_the_owner_sees_it_by_name(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    answer = _take(client_of(bob), debate, crux=1, side="no", because="If gold fell for a decade.")
    assert answer.status_code == 200 and "Saved." in answer.content.decode()
    side = PersonSide.objects.get()
    assert (side.user, side.card_id, side.side, side.because) == (bob, cards[0].id, "NO", "If gold fell for a decade.")
    page = owner_client.get(reverse("debate_results", args=[debate.id])).content.decode()
    people = page.split(f'id="people-card-{cards[0].id}"')[1].split("</div>")[0]
    assert 'data-person="bob" data-side="NO"' in people
    assert "If gold fell for a decade." in people


def test_the_debates_own_question_is_crux_zero(debate, cards, user):
    side_take(debate=debate, user=user, crux=0, side="nuanced")
    assert PersonSide.objects.get().card_id is None


def test_changing_a_side_keeps_its_history(owner_client, debate, cards, user):
    side_take(debate=debate, user=user, crux=2, side="yes")
    side_take(debate=debate, user=user, crux=2, side="yes")  # said again: nothing new
    side_take(debate=debate, user=user, crux=2, side="no", because="Two rate hikes ignored.")
    assert list(PersonSide.objects.order_by("id").values_list("side", flat=True)) == ["YES", "NO"]
    page = owner_client.get(reverse("debate_results", args=[debate.id])).content.decode()
    people = page.split(f'id="people-card-{cards[1].id}"')[1].split("</div>")[0]
    assert 'data-side="NO"' in people and "changed 1 time" in people


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"crux": 1, "side": "maybe"}, "A side is yes, no or nuanced."),
        ({"crux": 3, "side": "yes"}, "There is no crux 3 on this debate"),
        ({"crux": -1, "side": "yes"}, "greater than or equal to 0"),
        ({"crux": 1, "side": "yes", "because": "x" * 201}, "at most 200 characters"),
    ],
)
def test_a_bad_side_is_refused_with_why_and_nothing_is_written(owner_client, debate, cards, data, error):
    answer = _take(owner_client, debate, **data)
    assert error in answer.content.decode()
    assert not PersonSide.objects.exists()


def test_only_the_owner_and_members_take_sides(debate, cards, bob, other_user):
    assert _take(client_of(other_user), debate, crux=1, side="yes").status_code == 404
    debate_member_add(debate=debate, username="bob")
    debate_member_remove(debate=debate, user_id=bob.id)
    assert _take(client_of(bob), debate, crux=1, side="yes").status_code == 404
    assert not PersonSide.objects.exists()


def test_a_removed_members_sides_are_shown_nowhere(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=bob, crux=1, side="yes", because="Bob's words.")
    debate_member_remove(debate=debate, user_id=bob.id)
    page = owner_client.get(reverse("debate_results", args=[debate.id])).content.decode()
    assert "Bob's words." not in page and 'data-person="bob"' not in page


def test_a_share_link_viewer_sees_counts_never_names(debate, cards, user, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=user, crux=1, side="yes", because="Alice would move on a decade of data.")
    side_take(debate=debate, user=bob, crux=1, side="no")
    page = client_of(bob).get(reverse("debate_shared", args=[debate_share(debate=debate)])).content.decode()
    people = page.split(f'id="people-card-{cards[0].id}"')[1].split("</div>")[0]
    assert "1 yes, 1 no" in people
    for words in ["alice", "bob", "Alice would move"]:
        assert words not in page.split('id="faultline-map"')[1], words
    assert 'class="side-form"' not in page


def test_sides_are_rate_limited(owner_client, debate, cards, settings):
    settings.FAULTLINE_SIDE_RATE = "2/m"
    for side in ["yes", "no"]:
        assert "Saved." in _take(owner_client, debate, crux=1, side=side).content.decode()
    assert "faster than anyone thinks" in _take(owner_client, debate, crux=1, side="nuanced").content.decode()
    assert PersonSide.objects.count() == 2


def test_without_javascript_the_form_goes_back_to_the_results(owner_client, debate, cards):
    answer = owner_client.post(reverse("debate_side_take", args=[debate.id]), {"crux": 0, "side": "yes"}, follow=True)
    assert answer.redirect_chain[-1][0] == reverse("debate_results", args=[debate.id])
    assert "Your side is saved." in answer.content.decode()


def test_people_sides_never_enter_the_debates_log(debate, cards, user):
    before = Event.objects.filter(debate=debate).count()
    side_take(debate=debate, user=user, crux=1, side="yes", because="A sentence no persona may read.")
    assert Event.objects.filter(debate=debate).count() == before


# The atlas's pages show people's sides ("your faultlines"); its predictions, which write persona
# memories, must not read them.
SHOWN_TO_PEOPLE_ONLY = {"atlas/selectors.py"}


def test_no_prompt_or_memory_code_reads_peoples_sides():
    """What personas are told is built by orchestration, crux, memory and the atlas (and the
    gateways): none of them may so much as name people's sides, but for the atlas's page."""
    for package in ["orchestration", "crux", "memory", "atlas", "gateways", "personas", "projects"]:
        for source in (ROOT / package).rglob("*.py"):
            if str(source.relative_to(ROOT)) in SHOWN_TO_PEOPLE_ONLY:
                continue
            text = source.read_text()
            for name in ["PersonSide", "person_sides", "faultline_map", "debate_sides"]:
                assert name not in text, f"{source.relative_to(ROOT)} names {name}"


# ── manage.py stand ──────────────────────────────────────────────────────────────────────────


def test_the_stand_command_takes_a_side(debate, cards, bob, capsys):
    debate_member_add(debate=debate, username="bob")
    call_command("stand", str(debate.id), "--user", "bob", "--crux", "2", "--side", "NUANCED", "--because", "If.")
    assert capsys.readouterr().out.strip() == f"Debate {debate.id}: bob is NUANCED on crux 2."
    side = PersonSide.objects.get()
    assert (side.card_id, side.side, side.because) == (cards[1].id, "NUANCED", "If.")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--user", "mallory", "--crux", "1", "--side", "yes"], "^no debate with id {id} \\(for user mallory\\)$"),
        (["--user", "bob", "--crux", "7", "--side", "yes"], "^There is no crux 7 on this debate: 0 is its question"),
        (["--user", "bob", "--crux", "1", "--side", "perhaps"], "^A side is yes, no or nuanced.$"),
        (["--user", "nobody-at-all", "--crux", "1", "--side", "yes"], "^no user called 'nobody-at-all'"),
    ],
)
def test_the_stand_command_refuses_in_one_line(debate, cards, bob, other_user, arguments, message):
    debate_member_add(debate=debate, username="bob")
    with pytest.raises(CommandError, match=message.format(id=debate.id)):
        call_command("stand", str(debate.id), *arguments)
    assert not PersonSide.objects.exists()


def test_the_stand_command_refuses_a_bad_debate_id(bob):
    with pytest.raises(CommandError, match="^no debate with id not-a-debate \\(for user bob\\)$"):
        call_command("stand", "not-a-debate", "--user", "bob", "--crux", "1", "--side", "yes")


def test_browser_and_command_line_record_the_same_side(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    _take(owner_client, debate, crux=1, side="yes", because="A decade of data.")
    call_command(
        "stand", str(debate.id), "--user", "bob", "--crux", "1", "--side", "yes", "--because", "A decade of data."
    )
    by_form, by_command = PersonSide.objects.order_by("id")
    assert (by_form.card_id, by_form.side, by_form.because) == (by_command.card_id, by_command.side, by_command.because)


def test_the_exports_hold_where_people_stand_by_name_for_members(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=bob, crux=1, side="no", because="If gold fell for a decade.")
    markdown = client_of(bob).get(reverse("debate_export_markdown", args=[debate.id])).content.decode()
    assert "## Where people stand" in markdown
    assert "  - person bob: NO (would change their mind: If gold fell for a decade.)" in markdown
    document = json.loads(owner_client.get(reverse("debate_export_json", args=[debate.id])).content)
    crux = document["faultlines"]["cruxes"][1]
    assert crux["people"][0]["name"] == "bob" and crux["counts"] == {"NO": 1}
    results = owner_client.get(reverse("debate_results_text", args=[debate.id])).content.decode()
    assert "  - person bob: NO" in results


def test_a_member_deletes_their_sides_with_their_history(owner_client, debate, cards, user, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=bob, crux=1, side="yes")
    side_take(debate=debate, user=bob, crux=1, side="no")
    side_take(debate=debate, user=user, crux=1, side="yes")
    answer = client_of(bob).post(reverse("debate_sides_forget", args=[debate.id]), follow=True)
    assert "Your sides on this debate are deleted" in answer.content.decode()
    assert list(PersonSide.objects.values_list("user__username", flat=True)) == ["alice"]
    assert client_of(bob).get(reverse("debate_results", args=[debate.id])).status_code == 200  # still a member


def test_nobody_else_deletes_anyones_sides(debate, cards, user, other_user):
    side_take(debate=debate, user=user, crux=1, side="yes")
    assert client_of(other_user).post(reverse("debate_sides_forget", args=[debate.id])).status_code == 404
    assert PersonSide.objects.count() == 1
