"""The persona studio in a real browser, as a user would try it: build a persona from their own
writing (a real Celery worker drafts it at half price, as a Message Batch, against the scripted
Anthropic API, whose builder makes up a quote), review the draft with its verbatim anchor excerpts, edit one field, save, put the
persona in a deck of one's own with a seed persona, deal that hand, start a debate, and see the
built persona cite its own writing under one of its messages."""

import re

import pytest
from django.core.management import call_command

from devtools.scripted_debate import MADE_UP_QUOTE
from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from tests.browser.checks import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000
ESSAY = (
    "# On money\n\n"
    "Every generation believes its currency is different from the last one that failed.\n\n"
    "Savers who kept gold through the seventies slept better than those who trusted the bond market.\n"
)
MEMO = "A central bank is a promise, and promises are kept only while keeping them is cheap.\n"


@pytest.fixture
def slow_batches(worker_messages_api):
    """The worker's batches answer "in progress" to their first five looks (a second apart)."""
    worker_messages_api.batch_polls = 5
    yield worker_messages_api
    worker_messages_api.batch_polls = 1


@pytest.fixture
def citing_model(worker_debate_script):
    """The test worker's scripted personas cite the first passage of their own writing offered."""
    worker_debate_script.cite_own_writing = True
    yield worker_debate_script
    worker_debate_script.cite_own_writing = False


def test_build_a_persona_edit_it_and_see_it_cite_its_writing_in_a_debate(
    page, live_server_url, celery_worker_process, citing_model, slow_batches, server_side, screenshot, tmp_path
):
    server_side(call_command, "loadseed", verbosity=0)
    writing = tmp_path / "writing"
    (writing / "memos").mkdir(parents=True)
    (writing / "essay.md").write_text(ESSAY)
    (writing / "memos" / "memo.txt").write_text(MEMO)

    # ── sign up ───────────────────────────────────────────────────────────────────────────────
    page.goto(f"{live_server_url}/accounts/signup/")
    page.fill("#id_username", "author")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server_url}/debates/new/")

    # ── upload a corpus and build a persona from it ───────────────────────────────────────────
    page.click("nav >> text=Personas")
    assert_accessible(page, "the personas page")
    page.click("#build-persona")
    page.fill("#id_name", "Ada Ledger")
    # a corrupt file: the worker reads it (the page waits), names it, and nothing is stored
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.7 not really a pdf")
    page.set_input_files("#id_files", [str(tmp_path / "scan.pdf")])
    page.click("#build-submit")
    page.wait_for_selector("#upload-errors", timeout=120_000)
    assert "scan.pdf: not a PDF Faultline can read" in page.locator("#upload-errors").text_content()
    page.click("text=Start again")
    # the whole folder, subfolders included (an <input webkitdirectory>)
    page.fill("#id_name", "Ada Ledger")
    page.set_input_files("#id_files", [])
    page.set_input_files("#id_folder", str(writing))
    page.check("#id_batched")  # at half price: the worker sends the call as a batch and lets go
    page.click("#build-submit")
    page.wait_for_url(re.compile(r".*/personas/build/\d+/$"))
    # the worker drafts while the page waits (a spinner polling, saying where the batch is), then
    # shows the draft for review
    page.wait_for_selector("#build-batch", timeout=120_000)
    assert "at half price" in page.locator("#build-batch").text_content()
    page.wait_for_selector("#persona-form", timeout=120_000)
    (drafting,) = server_side(lambda: list(ModelCall.objects.filter(phase="persona_build", role="synthesis")))
    assert drafting.cost_usd == estimate_cost(
        model=drafting.model, input_tokens=drafting.input_tokens, output_tokens=drafting.output_tokens, batched=True
    )
    excerpts = page.locator("#excerpts blockquote.excerpt").all_text_contents()
    assert excerpts, "the draft has anchor excerpts"
    corpus = ESSAY + MEMO
    assert all(excerpt in corpus for excerpt in excerpts), f"not verbatim: {excerpts}"
    assert MADE_UP_QUOTE not in page.content()
    assert page.locator("#id_personality").input_value().startswith("A sceptical essayist")
    screenshot(page, "studio-draft", full_page=True)
    assert_accessible(page, "the draft review page")

    # ── edit one field and save ───────────────────────────────────────────────────────────────
    page.fill("#id_tagline", "Reads the ledger, not the forecast.")
    page.click("#save-persona")
    # a worker embeds and stores the corpus with the persona while the page waits
    page.wait_for_url(re.compile(r".*/personas/\d+/$"), timeout=120_000)
    persona_url = page.url
    assert page.locator("#persona-name").text_content() == "Ada Ledger"
    assert "Reads the ledger, not the forecast." in page.locator(".persona-page").text_content()
    documents = page.locator("#corpus-documents tbody").text_content()
    assert "essay.md" in documents and "memos/memo.txt" in documents  # the path in the folder, kept
    screenshot(page, "studio-persona", full_page=True)
    assert_accessible(page, "the persona page")

    # ── a deck of one's own: the built persona and a seed persona ──────────────────────────────
    page.click("text=New deck with this persona")
    page.fill("#id_name", "My table")
    assert page.locator("#deck-form input[type=checkbox]:checked").count() == 1
    page.locator("#deck-form label", has_text="The Macro Trader").locator("input").check()
    page.click("#save-deck")
    page.wait_for_url(re.compile(r".*/decks/\d+/$"))
    assert page.locator("#deck-personas .persona-card").count() == 2
    deck_url = page.url
    page.click("nav >> text=Personas")
    assert page.locator(".persona-cards .persona-card", has_text="Ada Ledger").count() == 1
    assert "My table" in page.locator("#decks").text_content()
    screenshot(page, "studio-personas", full_page=True)
    page.goto(deck_url)

    # ── deal it: the setup page draws the hand from the user's own deck ───────────────────────
    page.click("#deal-deck")
    page.wait_for_url(re.compile(r".*/debates/new/\?deck=\d+$"))
    assert page.locator("#id_deck option:checked").text_content().startswith("My table")
    for name in ["Ada Ledger", "The Macro Trader"]:
        page.locator("#hand .persona-card", has_text=name).click()
    assert page.locator(".hand-picked").first.text_content() == "2"
    screenshot(page, "studio-setup-hand")
    page.fill("#id_topic", "Should savers hold gold?")
    page.check("input[name=length][value=short]")
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))

    # ── the built persona speaks, citing its own writing under its message ────────────────────
    page.wait_for_function(
        """() => [...document.querySelectorAll('#chat-log article.msg:not(.is-streaming)')]
                   .some(msg => msg.querySelector('.msg-author').textContent.trim() === 'Ada Ledger'
                                && msg.querySelector('.msg-citations .msg-citation'))""",
        timeout=DEBATE_TIMEOUT_MS,
    )
    cited = page.locator("#chat-log article.msg", has=page.locator(".msg-citations")).first
    assert cited.locator(".msg-author").text_content().strip() == "Ada Ledger"
    source = cited.locator(".citation-source").first.text_content()
    excerpt = cited.locator(".citation-excerpt").first.text_content()
    assert source in {"essay.md", "memo.txt"}
    assert " ".join(excerpt.split()) in " ".join(corpus.split()), f"not from the corpus: {excerpt!r}"
    assert "[C1]" not in cited.locator(".msg-text").text_content()
    cited.scroll_into_view_if_needed()
    screenshot(page, "studio-debate-citation")
    assert not page.js_errors

    # the persona stays private: another user gets a 404 for its page
    other = page.context.browser.new_context()
    try:
        stranger = other.new_page()
        stranger.goto(f"{live_server_url}/accounts/signup/")
        stranger.fill("#id_username", "stranger")
        stranger.fill("#id_password1", PASSWORD)
        stranger.fill("#id_password2", PASSWORD)
        stranger.click("button[type=submit]")
        stranger.wait_for_url(f"{live_server_url}/debates/new/")
        assert stranger.goto(persona_url).status == 404
    finally:
        other.close()
