"""Why a debate failed can carry a provider's error text: its owner sees it, nobody else does
(share-link viewers, other users, anonymous visitors), on the page, over the websocket, or in the
fragment broadcast to every viewer."""

import pytest

from debates import fragments
from debates.selectors import debate_view
from debates.services.lifecycle import debate_share
from debates.state import EventKind

pytestmark = pytest.mark.django_db

REASON = "anthropic.APIStatusError: 529 overloaded (request_id req_0123, org acme-prod)"


@pytest.fixture
def failed(debate, log, personas):
    log.start()
    log.say(personas[0], "Said before the failure.")
    log.fail(REASON)
    debate.refresh_from_db()
    return debate


def test_the_owner_gets_the_reason(owner_client, failed):
    page = owner_client.get(f"/debates/{failed.id}/").content.decode()
    reason = owner_client.get(f"/debates/{failed.id}/failure/").content.decode()

    assert "This debate failed." in page and f"/debates/{failed.id}/failure/" in page
    assert REASON in reason


def test_a_share_link_viewer_sees_that_it_failed_but_not_why(client, failed):
    token = debate_share(debate=failed)

    page = client.get(f"/shared/{token}/")
    reason = client.get(f"/debates/{failed.id}/failure/")

    assert page.status_code == 200 and "This debate failed." in page.content.decode()
    assert REASON not in page.content.decode()
    assert reason.status_code == 200, "no login redirect and no error for the banner's request"
    assert REASON not in reason.content.decode()


def test_another_user_gets_no_reason(client, other_user, failed):
    client.force_login(other_user)

    assert REASON not in client.get(f"/debates/{failed.id}/failure/").content.decode()


def test_the_fragments_every_viewer_receives_carry_no_reason(failed):
    view = debate_view(debate_id=failed.id)

    snapshot = fragments.snapshot(view)
    pushed = fragments.for_event(view, EventKind.DEBATE_FAILED, {"reason": REASON})

    assert "This debate failed." in snapshot and "This debate failed." in pushed
    assert REASON not in snapshot and REASON not in pushed


def test_the_reason_url_does_not_reveal_whether_a_debate_exists(client, other_user, failed):
    import uuid

    client.force_login(other_user)

    existing = client.get(f"/debates/{failed.id}/failure/")
    missing = client.get(f"/debates/{uuid.uuid4()}/failure/")

    assert existing.status_code == missing.status_code == 200
    assert existing.content == missing.content


def test_a_moderator_exports_the_debate_without_the_reason(owner_client, failed):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import Client

    moderator = get_user_model().objects.create_user("moderator", password="x")
    moderator.user_permissions.add(Permission.objects.get(codename="view_any_debate"))
    client = Client()
    client.force_login(moderator)

    markdown = client.get(f"/debates/{failed.id}/export.md").content.decode()
    exported = client.get(f"/debates/{failed.id}/export.json")

    assert "Said before the failure." in markdown
    assert REASON not in markdown and "why is shown to its owner only" in markdown
    assert REASON not in exported.content.decode() and exported.json()["summary"]["status"] == "failed"
    assert REASON in owner_client.get(f"/debates/{failed.id}/export.md").content.decode()
    assert REASON in owner_client.get(f"/debates/{failed.id}/export.json").content.decode()
