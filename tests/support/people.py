"""Alice, who owns things, and Mallory, who must not see them: the two users the owner-scoping
tests need. A conftest imports these fixtures to use them."""

import pytest
from django.contrib.auth import get_user_model

PASSWORD = "a-long-test-passphrase-42"


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("mallory", password=PASSWORD)
