"""The Collaborate mode in a real browser: chosen in setup with a brief, run by the real worker
against the scripted Anthropic API; the Architect's and the Reviewer's answers stream side by side
into their two columns at the same time, the artifact appears below as a document, and it is
copied, downloaded and saved to a project, where it is listed. Screenshots go to
artifacts/screenshots/."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.models import Debate
from projects.models import Project
from tests.browser.checks import assert_accessible
from tests.support.browser_steps import log_in, money_pair_pick

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000

# Both columns hold a message still streaming, with text in it, at the same moment.
BOTH_STREAMING = """() => [0, 1].every(seat => {
  const msg = document.querySelector(`#collab-column-${seat} .msg.is-streaming`);
  return msg && msg.querySelector('.msg-text').textContent.trim().length > 0;
})"""
ARTIFACT_SHOWN = "() => !!document.querySelector('#collab-artifact .msg-markdown h1')"
FINISHED = "() => document.querySelector('#debate-banner').classList.contains('banner-completed')"


def set_up_user():
    call_command("loadseed", verbosity=0)
    owner = get_user_model().objects.create_user("builder", password=PASSWORD)
    Project.objects.create(owner=owner, name="Link shortener")


def test_a_collaboration_streams_two_columns_side_by_side_and_saves_its_artifact(
    page, live_server_url, celery_worker_process, streaming_model, server_side, screenshot, tmp_path
):
    server_side(set_up_user)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    log_in(page, live_server_url, "builder", PASSWORD)
    money_pair_pick(page)
    page.fill("#id_topic", "Design a link shortener for ten million links a day")
    page.check("input[name=mode][value=collaborate]")
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    assert page.locator("#drawer").count() == 0 and page.locator("#chat-log").count() == 0

    # the two roles stream at the same time, side by side
    page.wait_for_function(BOTH_STREAMING, timeout=DEBATE_TIMEOUT_MS, polling=50)
    left, right = (page.locator(f"#collab-column-{seat}").bounding_box() for seat in (0, 1))
    assert left["x"] + left["width"] <= right["x"] and abs(left["y"] - right["y"]) < 5, "side by side"
    screenshot(page, "collaborate-streaming")

    # each revises, and the artifact is written below them as a document
    page.wait_for_function(ARTIFACT_SHOWN, timeout=DEBATE_TIMEOUT_MS)
    page.wait_for_function(FINISHED, timeout=DEBATE_TIMEOUT_MS)
    for seat, role in ((0, "Architect"), (1, "Reviewer")):
        column = page.locator(f"#collab-column-{seat}")
        assert column.locator(".msg").count() == 2
        assert f"{role}: First answer" in column.text_content() and f"{role}: Revised answer" in column.text_content()
    artifact = page.locator("#collab-artifact .msg-markdown")
    assert artifact.locator("h1").text_content() == "Shared design"
    assert artifact.locator("h2").count() == 3 and artifact.locator("li").count() == 3
    screenshot(page, "collaborate-artifact", full_page=True)
    assert_accessible(page, "collaborate live page, finished")

    # Copy puts the Markdown on the clipboard; Download saves a .md file
    page.click("#copy-artifact")
    page.wait_for_function("() => document.querySelector('#copy-artifact').textContent === 'Copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("# Shared design\n\n## Structure")
    with page.expect_download() as download:
        page.click("#download-artifact")
    assert download.value.suggested_filename == "shared-design.md"
    saved = tmp_path / "artifact.md"
    download.value.save_as(saved)
    assert saved.read_text() == copied

    # Save to the project as a document, and find it listed there
    page.select_option("#artifact-project", label="Link shortener")
    page.click("#save-artifact")
    page.wait_for_url(re.compile(rf"{live_server_url}/projects/\d+/documents/\d+/$"))
    assert page.locator("section.page > h1").text_content() == "Shared design"
    # the saved artifact is Markdown, shown rendered (and sanitised) on the document's page
    assert page.locator("#document-body h2", has_text="Structure").count() == 1
    page.click("text=‹ Link shortener")
    assert "Shared design" in page.locator("#documents").text_content()
    screenshot(page, "collaborate-saved-document")

    debate = server_side(Debate.objects.get, pk=debate_id)
    assert (debate.mode, debate.status) == ("collaborate", Debate.Status.COMPLETED)
    assert not page.js_errors
