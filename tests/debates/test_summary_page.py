import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from debates.services.lifecycle import debate_create
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def debate():
    owner = get_user_model().objects.create_user("owner", password="x")
    return debate_create(owner=owner, topic="Is gold money?", personas=[PersonaFactory(), PersonaFactory()])


def test_the_owner_gets_a_printable_one_page_summary(client, debate):
    client.force_login(debate.owner)

    response = client.get(reverse("debate_summary", args=[debate.id]))

    assert response.status_code == 200
    assert b"@media print" not in response.content  # the print rules live in the stylesheet
    assert b'id="summary"' in response.content and b"Is gold money?" in response.content


def test_anyone_else_gets_a_404(client, debate):
    client.force_login(get_user_model().objects.create_user("stranger", password="x"))

    assert client.get(reverse("debate_summary", args=[debate.id])).status_code == 404
    client.logout()
    assert client.get(reverse("debate_summary", args=[debate.id])).status_code == 302  # to the login page
