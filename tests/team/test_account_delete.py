"""Any user deletes their account with everything that is theirs: the owner's debates go with the
owner's account (their members' sides with them), a member's sides with the member's; other
people's debates stay."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from crux.models import CruxCard
from debates.models import Debate, DebateMember, PersonSide
from debates.services.members import debate_member_add
from debates.services.sides import side_take
from gateways.llm.models import ModelCall
from personas.models import Persona
from projects.models import Project
from tests.factories import PersonaFactory
from tests.support.people import PASSWORD
from tests.team.conftest import client_of

pytestmark = pytest.mark.django_db


def test_the_owner_deletes_their_account_and_their_debates_go_with_it(owner_client, debate, cards, user, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=bob, crux=1, side="no")
    own_persona = PersonaFactory(persona_id="alices-own", owner=user)
    Project.objects.create(owner=user, name="Alice's project")
    ModelCall.objects.create(debate=debate, role="persona", provider="anthropic", model="m", cost_usd="0.01")
    answer = owner_client.post(reverse("account_delete"), {"password": PASSWORD}, follow=True)
    assert "Your account is deleted" in answer.content.decode()
    assert not get_user_model().objects.filter(username="alice").exists()
    assert not Debate.objects.exists() and not CruxCard.objects.exists()
    assert not PersonSide.objects.exists() and not DebateMember.objects.exists()
    assert not Persona.objects.filter(pk=own_persona.pk).exists() and not Project.objects.exists()
    assert not ModelCall.objects.exists()
    assert get_user_model().objects.filter(username="bob").exists()


def test_a_member_deletes_their_account_and_only_their_sides_go(debate, cards, user, bob):
    debate_member_add(debate=debate, username="bob")
    side_take(debate=debate, user=bob, crux=1, side="no")
    side_take(debate=debate, user=user, crux=1, side="yes")
    client_of(bob).post(reverse("account_delete"), {"password": PASSWORD})
    assert Debate.objects.filter(pk=debate.pk).exists()
    assert list(PersonSide.objects.values_list("user__username", flat=True)) == ["alice"]
    assert not DebateMember.objects.exists()


def test_a_wrong_password_deletes_nothing(owner_client, debate, user):
    answer = owner_client.post(reverse("account_delete"), {"password": "not it"})
    assert "That is not your password." in answer.content.decode()
    assert Debate.objects.filter(pk=debate.pk).exists()


def test_an_account_with_a_debate_under_way_is_kept_until_it_stops(owner_client, debate, user):
    assert debate.status == Debate.Status.PENDING  # queued for a worker a moment ago
    answer = owner_client.post(reverse("account_delete"), {"password": PASSWORD})
    assert "1 of your debates is still running" in answer.content.decode()
    assert get_user_model().objects.filter(pk=user.pk).exists()
