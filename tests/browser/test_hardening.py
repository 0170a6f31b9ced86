"""Every page in a real chromium: axe-core finds nothing critical or serious, the
Content-Security-Policy is sent and nothing on the page breaks under it; a failed htmx action
says what failed."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from debates.services.lifecycle import debate_create
from tests.browser.checks import assert_accessible
from tests.debates.log_builder import DebateLog, sample_results
from tests.factories import DeckFactory, PersonaFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"

# Every CSP violation the page reports, whatever its source (set up before any page script runs).
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline"));
});
"""


@pytest.fixture
def watched(browser):
    """A page whose CSP violations, console errors and uncaught errors are all recorded."""
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    context.add_init_script(CSP_LISTENER)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(f"uncaught: {error}"))
    page.on(
        "console",
        lambda message: (
            page.problems.append(f"console {message.type}: {message.text}") if message.type == "error" else None
        ),
    )
    yield page
    context.close()


def check(page, name: str, *, response=None, expected_status: int = 200) -> None:
    """The page's own checks: the CSP header, no CSP violation, nothing broken, and axe clean."""
    if response is not None:
        assert response.status == expected_status, name
        policy = response.header_value("content-security-policy") or ""
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, f"{name}: CSP header {policy!r}"
    page.wait_for_timeout(150)  # let deferred scripts and htmx's load triggers run
    violations = page.evaluate("window.__cspViolations")
    assert violations == [], f"{name}: CSP violations {violations}"
    assert [p for p in page.problems if "Content Security Policy" in p or "Refused to" in p] == [], name
    # Every console error counts, a 404 (a missing favicon, say) included; the 404 page's own
    # status is the one error its check expects.
    expected = ["Failed to load resource: the server responded with a status of 404"] if expected_status == 404 else []
    problems = [p for p in page.problems if not any(e in p for e in expected)]
    if expected_status in (403, 429, 500):
        problems = [p for p in problems if f"status of {expected_status}" not in p]
    assert problems == [], f"{name}: {page.problems}"
    page.problems.clear()
    assert_accessible(page, name)


def log_in(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))


def debates_for_every_page():
    """A debate mid-way (a message streaming, a crux room open) and a finished one with results."""
    owner = get_user_model().objects.create_user("alice", password=PASSWORD)
    personas = [PersonaFactory(name=name) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]
    deck = DeckFactory(personas=personas)

    live = debate_create(owner=owner, topic="Is gold obsolete?", personas=personas, deck=deck)
    log = DebateLog(live).start().aspects("Evidence", "Time horizon").phase("opening")
    log.say(personas[0], "Gold has five thousand years of history.", kind="opening")
    log.say(personas[1], "History is not a price.", kind="opening")
    room = log.open_room(personas[0], personas[1], "Does the long run matter more?")
    log.say(personas[0], "Decades decide it.", kind="entry", room=room)
    log.ledger(personas[0], stance="Gold is a hedge.")
    streaming = log.begin(personas[2], kind="opening")
    log.stream(streaming, "Central banks buy it because")

    done = debate_create(owner=owner, topic="Will rates fall?", personas=personas[:2], deck=deck)
    done_log = DebateLog(done).start()
    done_log.say(personas[0], "They will.", kind="opening")
    done_log.say(personas[1], "They will not.", kind="opening")
    done_room = done_log.open_room(personas[0], personas[1], "Is inflation beaten?")
    done_log.close_room(done_room)
    done_log.post_card(done_room, question="Is inflation beaten?")
    done_log.complete(sample_results("Is inflation beaten?", names=("Ada Hardmoney", "Bram Macro")))
    return live, room, done


def test_every_page_passes_axe_and_runs_under_its_csp(watched, live_server_url, server_side):
    page = watched
    live, room, done = server_side(debates_for_every_page)

    check(page, "home", response=page.goto(f"{live_server_url}/"))
    check(page, "signup", response=page.goto(f"{live_server_url}/accounts/signup/"))
    check(page, "login", response=page.goto(f"{live_server_url}/accounts/login/"))
    check(page, "404", response=page.goto(f"{live_server_url}/no/such/page/"), expected_status=404)
    check(page, "admin login", response=page.goto(f"{live_server_url}/admin/login/"))

    log_in(page, live_server_url, "alice")
    check(page, "setup", response=page.goto(f"{live_server_url}/debates/new/"))
    estimate = page.locator("#cost-estimate .cost-estimate-value")
    # No figure before a hand is picked; then the dialogue's measured cost per message
    # (benchmarks/cost.py), $0.0045, and what the figure rests on.
    assert page.locator("#cost-estimate .cost-estimate-figure").is_hidden()
    assert page.locator("#cost-estimate .cost-estimate-wait").is_visible()
    for card in page.locator("#hand label").all()[:2]:
        card.click()  # estimate.js and the hand counter run under the CSP
    assert estimate.text_content() == "$0.15"  # standard length (30 turns), a hand of 2: 34 messages
    assert "measured test debate" in page.locator("#cost-estimate .cost-estimate-basis").text_content()
    page.locator("#hand label").all()[2].click()
    page.check("input[name=length][value=long]")
    assert estimate.text_content() == "$0.30"  # 3 openings, 60 turns, 3 closings
    check(page, "setup with a hand picked")

    response = page.goto(f"{live_server_url}/debates/{live.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    page.locator(f"#room-tab-{room.id}").click()
    page.locator(f"#room-panel-{room.id}").wait_for(state="visible")
    assert page.locator("#chat-log article.is-streaming[aria-busy='true']").count() == 1
    check(page, "live page mid-debate, crux room open", response=response)

    response = page.goto(f"{live_server_url}/debates/{done.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    check(page, "live page of a finished debate", response=response)
    check(page, "results", response=page.goto(f"{live_server_url}/debates/{done.id}/results/"))
    check(page, "replay", response=page.goto(f"{live_server_url}/debates/{done.id}/replay/?step=3"))
    check(page, "archive", response=page.goto(f"{live_server_url}/debates/"))
    check(page, "rename", response=page.goto(f"{live_server_url}/debates/{done.id}/rename/"))
    check(page, "delete", response=page.goto(f"{live_server_url}/debates/{done.id}/delete/"))

    # A form posted without its CSRF cookie gets the site's 403 page.
    page.goto(f"{live_server_url}/debates/")
    page.context.clear_cookies(name="csrftoken")
    with page.expect_navigation() as navigation:
        page.click("nav button.link")  # Log out: a POST form
    check(page, "403 CSRF", response=navigation.value, expected_status=403)
    assert "That form had expired" in page.content()

    # The 500 page, as Django renders it for an unhandled error, served with the site's CSP.
    def server_error_page() -> bytes:
        from django.test import RequestFactory
        from django.views.defaults import server_error

        return server_error(RequestFactory().get("/")).content

    body = server_side(server_error_page)
    policy = navigation.value.header_value("content-security-policy")
    page.route(
        f"{live_server_url}/broken/",
        lambda route: route.fulfill(
            status=500, body=body, content_type="text/html", headers={"Content-Security-Policy": policy}
        ),
    )
    check(page, "500", response=page.goto(f"{live_server_url}/broken/"), expected_status=500)
    assert "Something broke on our side" in page.content()


def test_a_failed_action_says_what_failed(watched, live_server_url, server_side):
    from debates.models import Debate

    page = watched
    live, room, done = server_side(debates_for_every_page)
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{live.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    # The network drops the Stop request.
    page.route("**/stop/", lambda route: route.abort())
    page.click("#stop-debate")
    alert = page.locator("#action-error[role='alert']")
    alert.get_by_text("Could not stop the debate: the server did not answer.").wait_for()
    page.unroute("**/stop/")

    # The server refuses it: the debate is gone.
    server_side(lambda: Debate.objects.filter(pk=live.id).delete())
    page.click("#stop-debate")
    alert.get_by_text("Could not stop the debate: this debate is not available to you any more.").wait_for()
    assert alert.is_visible()

    # Share fails the same way, and says so.
    page.goto(f"{live_server_url}/debates/{done.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    page.route("**/share/", lambda route: route.fulfill(status=500, body="boom"))
    page.click("#share-debate")
    alert.get_by_text("Could not share the debate: the server had a problem (error 500).").wait_for()


def test_the_owner_sees_why_a_debate_failed_and_a_share_viewer_does_not(watched, browser, live_server_url, server_side):
    from debates.services.lifecycle import debate_share

    reason = "529 overloaded: request req_0123 for org acme-prod"

    def failed_debate():
        live, room, done = debates_for_every_page()
        DebateLog(live).fail(reason)
        return live, debate_share(debate=live)

    live, token = server_side(failed_debate)
    page = watched
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{live.id}/")
    page.locator("#debate-banner .failure-reason", has_text=reason).wait_for()  # fetched by htmx on load
    check(page, "a failed debate, its owner")

    visitor = browser.new_context().new_page()
    visitor.goto(f"{live_server_url}/shared/{token}/")
    visitor.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    visitor.wait_for_load_state("networkidle")
    assert "This debate failed." in visitor.locator("#debate-banner").text_content()
    assert reason not in visitor.content()
    visitor.context.close()


def test_the_lockout_page_after_too_many_failed_logins(watched, live_server_url, server_side):
    server_side(lambda: get_user_model().objects.create_user("alice", password=PASSWORD))
    page = watched
    for _ in range(5):
        page.goto(f"{live_server_url}/accounts/login/")
        page.fill("#id_username", "alice")
        page.fill("#id_password", "not-the-password")
        page.click("button[type=submit]")
        page.locator(".form-errors").wait_for()

    page.fill("#id_password", "not-the-password")
    with page.expect_navigation() as navigation:
        page.click("button[type=submit]")

    check(page, "login lockout", response=navigation.value, expected_status=429)
    assert "Too many attempts" in page.locator("h1").text_content()
