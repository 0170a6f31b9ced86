"""A message that cites its persona's own writing shows the citation under it, live and after a
reload, as text (a hostile excerpt stays text), and the page stays accessible."""

import pytest

from debates.services.lifecycle import debate_create
from tests.browser.checks import assert_accessible
from tests.browser.test_live_page import PASSWORD, log_in
from tests.debates.log_builder import HOSTILE, DebateLog
from tests.factories import DeckFactory, PersonaFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_debate():
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("alice", password=PASSWORD)
    personas = [PersonaFactory(name=name) for name in ("Ada Essayist", "Bram Macro")]
    debate = debate_create(
        owner=owner, topic="Is gold obsolete?", personas=personas, deck=DeckFactory(personas=personas)
    )
    return debate, personas, DebateLog(debate).start()


def test_a_citation_shows_under_its_message(page, live_server_url, server_side, screenshot):
    debate, personas, log = server_side(a_debate)
    server_side(lambda: log.phase("opening"))
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    citation = {"tag": "C1", "chunk_id": 1, "source": "essays/gold.md", "excerpt": f"Gold pays no yield. {HOSTILE}"}
    message = server_side(log.begin, personas[0], kind="opening")
    server_side(log.finish, message, "Gold cannot be printed away.", citations=[citation])

    cited = page.locator(f"#msg-{message.id} .msg-citations")
    cited.wait_for()
    assert "essays/gold.md" in cited.inner_text()
    assert HOSTILE in cited.locator(".citation-excerpt").inner_text()
    assert page.locator(f"#msg-{message.id} .msg-citations script, #msg-{message.id} .msg-citations img").count() == 0
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    page.locator(f"#msg-{message.id} .msg-citations .citation-tag", has_text="C1").wait_for()
    assert_accessible(page, "message with a citation")
    screenshot(page, "message-citation")
