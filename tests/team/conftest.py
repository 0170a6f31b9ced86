"""A finished debate with two crux cards, its owner Alice, two people she may invite (Bob and
Carol) and Mallory, who is never invited."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.debates.conftest import deck, make_debate, owner_client, personas  # noqa: F401
from tests.debates.log_builder import DebateLog, sample_results
from tests.support.people import PASSWORD


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def carol(db):
    return get_user_model().objects.create_user("carol", password=PASSWORD)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def debate(make_debate):  # noqa: F811
    return make_debate()


@pytest.fixture
def cards(debate, personas):  # noqa: F811
    """The debate run to its end: the two personas' sides on the question and two crux cards."""
    log = DebateLog(debate).start()
    log.ledger(personas[0], stance="Gold.", side="YES")
    log.ledger(personas[1], stance="Liquidity.", side="NO")
    log.say(personas[0], "Gold has history.", kind="opening")
    room = log.open_room(personas[0], personas[1], "Will gold outlast the dollar?")
    first = log.post_card(room)
    log.close_room(room)
    room = log.open_room(personas[1], personas[2], "Can central banks stay independent?")
    second = log.post_card(room)
    log.close_room(room)
    log.complete(sample_results())
    return [first, second]
