"""Projects in a real browser, as a new user would try them: create a project, attach a Markdown
document and a local git repository, start a debate with the project as context (a real Celery
worker runs it against the scripted Anthropic API), see the context named on the live page, save
the results to the project, find the note on the project page, search for it, edit it, copy it."""

import re
import subprocess

import pytest
from django.core.management import call_command

from tests.browser.checks import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
READ_TIMEOUT_MS = 30_000  # a worker's child process starts and reads the upload
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000
MARKER = "Our plant in Porto ships 40 pallets a day"


@pytest.fixture
def local_repository(tmp_path):
    folder = tmp_path / "pallets"
    folder.mkdir()
    (folder / "README.md").write_text("# Pallets\n\nTracks every pallet from dock to truck.\n")
    (folder / "tracker.py").write_text("print('pallets')\n")
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "Track pallets"]):
        subprocess.run(
            ["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com", *args],
            cwd=folder,
            check=True,
            capture_output=True,
        )
    return folder


def test_a_project_from_creation_to_a_saved_and_copied_note(
    page,
    live_server_url,
    celery_worker_process,
    worker_messages_api,
    server_side,
    screenshot,
    local_repository,
    tmp_path,
):
    server_side(call_command, "loadseed", verbosity=0)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)

    # ── sign up ───────────────────────────────────────────────────────────────────────────────
    page.goto(f"{live_server_url}/accounts/signup/")
    page.fill("#id_username", "planner")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server_url}/debates/new/")

    # ── create a project ──────────────────────────────────────────────────────────────────────
    page.click("nav >> text=Projects")
    page.click("#new-project")
    page.fill("#id_name", "Logistics")
    page.fill("#id_description", "Where our pallets go.")
    page.fill("#id_goals", "Halve the time a pallet waits on the dock.")
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf"{live_server_url}/projects/\d+/$"))
    project_url = page.url
    assert page.locator("#project-name").text_content() == "Logistics"

    # ── attach a Markdown document ────────────────────────────────────────────────────────────
    page.click("#documents >> text=Attach")
    document = tmp_path / "dock-report.md"
    document.write_text(f"# Dock report\n\n{MARKER}, and half of them wait over an hour.\n")
    page.set_input_files("#id_file", str(document))
    page.click("button[type=submit]")
    page.wait_for_url(project_url + "#documents")
    # a worker reads it (in a child process with limits) while the row says so, then the row is redrawn
    row = page.locator("#documents li", has_text="dock-report.md")
    row.locator("[role=status]", has_text="reading…").wait_for(state="detached", timeout=READ_TIMEOUT_MS)
    assert row.locator("[role=alert]").count() == 0

    # an unreadable file is refused, with why
    page.click("#documents >> text=Attach")
    bad = tmp_path / "scan.pdf"
    bad.write_bytes(b"%PDF-1.7 not really")
    page.set_input_files("#id_file", str(bad))
    page.click("button[type=submit]")
    page.wait_for_url(project_url + "#documents")
    refused = page.locator("#documents li", has_text="scan.pdf").locator("[role=alert]")
    refused.wait_for(timeout=READ_TIMEOUT_MS)
    assert "“scan.pdf” is not a PDF Faultline can read" in refused.text_content()
    page.goto(project_url)

    # ── attach a local repository ─────────────────────────────────────────────────────────────
    page.click("#repositories >> text=Attach")
    page.check("input[name=source][value=local]")
    page.fill("#id_path", str(local_repository))
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/repositories/\d+/$"))
    assert "tracker.py" in page.locator("#repo-tree").text_content()
    assert "Track pallets" in page.locator("#repo-commits").text_content()
    page.goto(project_url)
    screenshot(page, "project", full_page=True)
    assert_accessible(page, "the project page")

    # ── start a debate with the project as context ────────────────────────────────────────────
    page.click("#debate-project")
    page.wait_for_url(re.compile(r".*/debates/new/\?context=project:\d+$"))
    assert page.locator("#id_context option:checked").text_content() == "Logistics"
    money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
    page.select_option("#id_deck", money)
    page.locator("#hand .persona-card", has_text="The Hard-Money Maximalist").wait_for()
    for name in ["The Hard-Money Maximalist", "The Macro Trader"]:
        page.locator("#hand .persona-card", has_text=name).click()
    page.fill("#id_topic", "Should we pay for faster pallet handling?")
    page.check("input[name=length][value=short]")
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]

    # the context is named on the live page
    assert page.locator("#debate-context").text_content().split() == ["Context:", "Project", "“Logistics”"]
    page.wait_for_selector("#results h2", timeout=DEBATE_TIMEOUT_MS)
    screenshot(page, "project-debate-finished")
    # ...and it reached the personas: the worker's model received the document's words
    persona_prompts = [
        body["system"][0]["text"]
        for body in list(worker_messages_api.requests)
        if not (body.get("output_config") or {}).get("format") and "Pallets" in body["system"][0]["text"]
    ]
    assert persona_prompts and all(MARKER in prompt for prompt in persona_prompts)

    # ── copy the results, then save them to the project ──────────────────────────────────────
    page.click("#copy-results")
    page.wait_for_selector("#copy-results:text-is('Copied')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("# Should we pay for faster pallet handling?") and "## Results" in copied
    assert page.locator("#save-project option:checked").text_content() == "Logistics"
    page.click("#save-note")
    page.wait_for_url(re.compile(r".*/projects/\d+/notes/\d+/$"))
    note_url = page.url
    assert page.locator("#note-title").text_content() == "Debate: Should we pay for faster pallet handling?"
    assert page.locator("#note-body h2", has_text="Results").count() == 1
    assert page.locator(f"a[href='/debates/{debate_id}/']").count() == 1

    # ── find it on the project page, and by search ────────────────────────────────────────────
    page.goto(project_url)
    assert "Debate: Should we pay for faster pallet handling?" in page.locator("#notes").text_content()
    assert "Should we pay for faster pallet handling?" in page.locator("#debates").text_content()
    page.fill("#project-q", "pallet handling")
    page.press("#project-q", "Enter")
    page.wait_for_url(re.compile(r".*\?q=pallet\+handling$"))
    found = page.locator("#notes a", has_text="Debate: Should we pay")
    assert found.count() == 1
    page.fill("#project-q", "nothing like this")
    page.press("#project-q", "Enter")
    page.wait_for_url(re.compile(r".*\?q=nothing\+like\+this$"))
    assert "No note matches “nothing like this”." in page.locator("#notes").text_content()
    page.goto(project_url + "?q=pallet+handling")
    page.locator("#notes a", has_text="Debate: Should we pay").click()
    page.wait_for_url(note_url)

    # ── edit it ───────────────────────────────────────────────────────────────────────────────
    page.click("#edit-note")
    page.fill("#id_content", "## Decision\n\nPay for the **faster** handling.\n\n<script>window.__xss = 1</script>")
    page.click("button[type=submit]")
    page.wait_for_url(note_url)
    assert page.locator("#note-body h2").text_content() == "Decision"
    assert page.locator("#note-body strong").text_content() == "faster"
    assert page.locator("#note-body script").count() == 0 and page.evaluate("window.__xss") is None
    assert_accessible(page, "a note")

    # ── copy it ───────────────────────────────────────────────────────────────────────────────
    page.click("#copy-note")
    page.wait_for_selector("#copy-note:text-is('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == (
        "## Decision\n\nPay for the **faster** handling.\n\n<script>window.__xss = 1</script>"
    )
    screenshot(page, "note", full_page=True)

    # ── a crux card on its own ────────────────────────────────────────────────────────────────
    page.goto(f"{live_server_url}/debates/{debate_id}/")
    question = page.locator("#crux-cards .crux-card .crux-question").first.text_content()
    page.locator("#crux-cards .crux-card .card-save").first.click()
    page.wait_for_url(re.compile(r".*/projects/\d+/notes/\d+/$"))
    assert page.locator("#note-title").text_content() == f"Crux: {question}"
    page.goto(project_url)
    assert page.locator("#notes li").count() == 2
    assert not page.js_errors
