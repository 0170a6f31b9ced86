"""Members: the owner invites people with accounts (by user name or a single-use link); a member
reads the debate but changes nothing and sees nothing that is the owner's alone; a removed member
and anyone never invited get the same 404 as for a debate that does not exist."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from debates.models import Debate, DebateInvite, DebateMember
from debates.services.members import debate_member_add
from tests.team.conftest import client_of

pytestmark = pytest.mark.django_db

# What a member may read (GET): the debate's pages and exports.
MEMBER_READS = [
    "debate_live",
    "debate_results",
    "debate_replay",
    "debate_results_text",
    "debate_export_markdown",
    "debate_export_json",
]
# The owner's alone: a member gets a 404 as anyone else does.
OWNER_ONLY_GETS = [
    "debate_summary",
    "debate_members",
    "debate_rename",
    "debate_delete",
    "debate_memory",
    "debate_rerun",
]
OWNER_ONLY_POSTS = [
    "debate_stop",
    "debate_pause",
    "debate_continue",
    "debate_resume",
    "debate_share",
    "debate_unshare",
    "debate_rename",
    "debate_delete",
    "debate_interject",
    "debate_save_note",
    "debate_save_artifact",
    "debate_ask_again",
    "debate_member_add",
    "debate_invite_link",
    "debate_rerun",
]


def _url(name, debate):
    return reverse(name, args=[debate.id])


def test_a_member_added_by_name_reads_every_page_and_export(owner_client, debate, cards, bob):
    owner_client.post(_url("debate_member_add", debate), {"username": "bob"})
    bob_client = client_of(bob)
    for name in MEMBER_READS:
        assert bob_client.get(_url(name, debate)).status_code == 200, name


def test_the_answer_to_an_invite_by_name_does_not_say_whether_the_name_exists(owner_client, debate, bob):
    known = owner_client.post(_url("debate_member_add", debate), {"username": "bob"}, follow=True)
    unknown = owner_client.post(_url("debate_member_add", debate), {"username": "nobody-here"}, follow=True)
    assert known.status_code == unknown.status_code == 200
    known_text = known.content.decode().replace("bob", "NAME")
    unknown_text = unknown.content.decode().replace("nobody-here", "NAME")
    # The members list differs (Bob is on it now); the sentence said back is the same.
    assert "If “NAME” has an account here, they are now a member of this debate." in known_text
    assert "If “NAME” has an account here, they are now a member of this debate." in unknown_text
    assert list(DebateMember.objects.values_list("user__username", flat=True)) == ["bob"]


def test_a_member_changes_nothing_and_sees_nothing_of_the_owners_alone(owner_client, debate, cards, bob):
    Debate.objects.filter(pk=debate.pk).update(context_label="Alice's secret project", context_text="SECRET CONTEXT")
    debate_member_add(debate=debate, username="bob")
    bob_client = client_of(bob)
    for name in OWNER_ONLY_GETS:
        assert bob_client.get(_url(name, debate)).status_code == 404, name
    for name in OWNER_ONLY_POSTS:
        assert bob_client.post(_url(name, debate), {"topic": "Renamed", "text": "hi"}).status_code == 404, name
    live = bob_client.get(_url("debate_live", debate)).content.decode()
    assert "Alice's secret project" not in live
    assert 'id="share-debate"' not in live and 'href="/debates/' + str(debate.id) + '/rename/"' not in live
    for name in ["debate_export_markdown", "debate_export_json", "debate_results_text"]:
        assert "SECRET CONTEXT" not in bob_client.get(_url(name, debate)).content.decode(), name
    debate.refresh_from_db()
    assert debate.topic == "Is hard money the future?" and not debate.share_token


def test_someone_never_invited_gets_a_404_on_every_url_of_the_debate(debate, cards, bob, other_user):
    debate_member_add(debate=debate, username="bob")
    mallory = client_of(other_user)
    for name in MEMBER_READS + OWNER_ONLY_GETS:
        assert mallory.get(_url(name, debate)).status_code == 404, name
    for name in OWNER_ONLY_POSTS:
        assert mallory.post(_url(name, debate)).status_code == 404, name
    remove = reverse("debate_member_remove", args=[debate.id, bob.id])
    assert mallory.post(remove).status_code == 404
    assert DebateMember.objects.filter(debate=debate, user=bob).exists()


def test_an_invite_link_is_taken_by_whoever_accepts_it_first(owner_client, debate, cards, bob, carol):
    owner_client.post(_url("debate_invite_link", debate))
    token = DebateInvite.objects.get(debate=debate).token
    accept = reverse("invite_accept", args=[token])
    bob_client, carol_client = client_of(bob), client_of(carol)
    assert bob_client.get(accept).status_code == 200  # asks first: a link preview uses nothing up
    assert carol_client.get(accept).status_code == 200
    assert bob_client.post(accept).status_code == 302
    assert bob_client.get(_url("debate_results", debate)).status_code == 200
    assert carol_client.get(accept).status_code == 404
    assert carol_client.post(accept).status_code == 404
    assert carol_client.get(_url("debate_results", debate)).status_code == 404
    assert bob_client.post(accept).status_code == 302  # its taker opening it again is no error
    assert client_of(bob).get(reverse("invite_accept", args=["no-such-token"])).status_code == 404


def test_the_owner_opening_their_own_link_leaves_it_for_someone_else(owner_client, debate, bob):
    owner_client.post(_url("debate_invite_link", debate))
    accept = reverse("invite_accept", args=[DebateInvite.objects.get(debate=debate).token])
    owner_client.post(accept)
    assert client_of(bob).post(accept).status_code == 302
    assert DebateMember.objects.filter(debate=debate, user=bob).exists()


def test_a_removed_member_gets_a_404_again(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    owner_client.post(reverse("debate_member_remove", args=[debate.id, bob.id]))
    for name in MEMBER_READS:
        assert client_of(bob).get(_url(name, debate)).status_code == 404, name


def test_the_owner_sees_the_members_and_the_new_link(owner_client, debate, bob):
    debate_member_add(debate=debate, username="bob")
    page = owner_client.post(_url("debate_invite_link", debate)).content.decode()
    assert 'data-member="bob"' in page
    token = DebateInvite.objects.get(debate=debate).token
    assert f"/invites/{token}/" in page


def test_invitations_are_rate_limited(owner_client, debate, settings):
    settings.FAULTLINE_INVITE_RATE = "2/h"
    for _ in range(2):
        assert owner_client.post(_url("debate_invite_link", debate)).status_code == 200
    assert owner_client.post(_url("debate_invite_link", debate)).status_code == 429
    assert owner_client.post(_url("debate_member_add", debate), {"username": "bob"}).status_code == 429
    assert DebateInvite.objects.count() == 2


def test_the_invite_command_adds_a_member_by_name(debate, user, bob, capsys):
    call_command("invite", str(debate.id), "--user", "alice", "--member", "bob")
    call_command("invite", str(debate.id), "--user", "alice", "--member", "nobody-here")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].replace("bob", "NAME") == lines[1].replace("nobody-here", "NAME")
    assert list(DebateMember.objects.values_list("user__username", flat=True)) == ["bob"]


def test_the_invite_command_refuses_a_debate_that_is_not_yours_in_one_line(debate, bob):
    with pytest.raises(CommandError, match=f"^no debate with id {debate.id} \\(for user bob\\)$"):
        call_command("invite", str(debate.id), "--user", "bob", "--member", "alice")
    with pytest.raises(CommandError, match="^no debate with id not-an-id"):
        call_command("invite", "not-an-id", "--user", "alice", "--member", "bob")
    assert not get_user_model().objects.get(username="alice").debate_memberships.exists()


def test_a_member_finds_the_debate_in_their_archive(debate, bob, other_user):
    debate_member_add(debate=debate, username="bob")
    assert f'href="/debates/{debate.id}/results/"' in client_of(bob).get(reverse("debate_archive")).content.decode()
    assert str(debate.id) not in client_of(other_user).get(reverse("debate_archive")).content.decode()


def test_the_owner_reaches_the_members_page_from_the_debate_and_its_results(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    members = f'href="{_url("debate_members", debate)}"'
    for name in ["debate_live", "debate_results"]:
        assert members in owner_client.get(_url(name, debate)).content.decode(), name
        assert members not in client_of(bob).get(_url(name, debate)).content.decode(), name
