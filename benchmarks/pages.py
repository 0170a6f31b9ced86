"""The page gallery (`make pages`): every page in every mode and state, rendered at 1360 and 390 px,
with axe-core run on each, into benchmarks/reports/pages/ (git ignores it) with an index.html.

Everything runs as in production, on this machine: its own embedded PostgreSQL and Redis
(.faultline/pages), a Celery worker running the real orchestrator, daphne serving the pages, and
headless chromium with two windows side by side (a desktop's and a phone's) watching the same
debate. Model calls go through the real anthropic SDK to the local fake Messages API, answered by
the scripted debate (devtools/scripted_debate.py) the browser tests use; the gallery slows the
model down for the first seconds of a debate (the "live at start" pictures), has it overloaded for
a while (waiting for the model) and failing (a failed debate).

    .venv/bin/python benchmarks/pages.py [--out benchmarks/reports/pages] [--only dialogue,graph]

Each picture is listed in the index with what was found on it: axe-core violations of any impact,
console errors (404s included), and sideways scrolling at 390 px. The command exits 1 when any
was found, after writing the whole gallery.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.children import (  # noqa: E402
    Child,
    embedded_services_running,
    free_port,
    stop_embedded_services_started,
    wait_for_http,
)

os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "pages"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "a-long-gallery-passphrase-42"
WIDTHS = {"desktop": 1360, "phone": 390}
HEIGHTS = {"desktop": 900, "phone": 844}
MODES = ("dialogue", "graph", "analyst_critic", "collaborate")
TOPICS = {
    "dialogue": "Should central banks target inflation at all?",
    "graph": "Is gold still a hedge against inflation?",
    "analyst_critic": "Should a saver buy index funds?",
    "collaborate": "Design a service that sends each saver a monthly statement",
}
HANDS = {
    "dialogue": ["The Hard-Money Maximalist", "The Central-Bank Institutionalist", "The Macro Trader"],
    "graph": ["The Hard-Money Maximalist", "The Central-Bank Institutionalist", "The Macro Trader"],
    "analyst_critic": ["The Hard-Money Maximalist", "The Central-Bank Institutionalist"],
    "collaborate": ["The Hard-Money Maximalist", "The Central-Bank Institutionalist"],
}
DEBATE_TIMEOUT_MS = 300_000
EXPECTED_ERROR_PAGES = ("/no/such/page/",)  # visited for their own error status
SLOW_START_SECONDS = 8.0  # each call of a debate's first seconds (a slow model at first)


def say(text: str) -> None:
    print(text, flush=True)


# ── the model ────────────────────────────────────────────────────────────────────────────────


class GalleryModel:
    """The scripted debate, plus what the gallery asks of the model at times: slow calls, an
    overloaded spell, failures."""

    def __init__(self, script) -> None:
        self.script = script
        self.slow_until = 0.0
        self.slow_start = False  # the next call begins a slow spell (a debate's first seconds)
        self.overloaded = False
        self.failing = False

    def respond(self, body, call):
        from devtools.fake_messages_api import Reply

        if self.slow_start:
            self.slow_start = False
            self.slow_for(SLOW_START_SECONDS + 4)
        if self.failing:
            return Reply(status=400, error_type="invalid_request_error")
        if self.overloaded:
            return Reply.overloaded()
        reply = self.script.respond(body, call)
        if time.monotonic() < self.slow_until:
            reply.latency = max(reply.latency, SLOW_START_SECONDS)
        return reply

    def slow_for(self, seconds: float) -> None:
        self.slow_until = time.monotonic() + seconds


# ── the pictures ─────────────────────────────────────────────────────────────────────────────

# Every console error counts, 404s included; CSP violations are reported by the page itself.
CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__cspViolations.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline"));
});
"""


@dataclass
class Shot:
    width: str
    path: str
    url: str
    problems: list[str] = field(default_factory=list)


@dataclass
class Entry:
    group: str
    name: str
    note: str = ""
    shots: dict[str, Shot] = field(default_factory=dict)
    links: list[tuple[str, str]] = field(default_factory=list)  # (label, relative path)


class Window:
    """One browser window of the pair: its page, and the console errors since its last picture."""

    def __init__(self, browser, width: str, storage_state=None) -> None:
        self.width = width
        self.context = browser.new_context(
            viewport={"width": WIDTHS[width], "height": HEIGHTS[width]},
            storage_state=storage_state,
            reduced_motion="reduce",
        )
        self.context.add_init_script(CSP_LISTENER)
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))

    def _console(self, message) -> None:
        if message.type != "error":
            return
        # A page visited for its own error status (the 404 page) reports that status: not a problem.
        own = message.location.get("url") == self.page.url and "the server responded with a status" in message.text
        if not (own and self.page.url.endswith(EXPECTED_ERROR_PAGES)):
            self.errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    def goto(self, url: str) -> None:
        self.page.goto(url)
        self.settle()

    def settle(self) -> None:
        if self.page.evaluate("() => !!document.querySelector('[ws-connect]')"):
            self.page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
        self.page.wait_for_load_state("networkidle")


class Gallery:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.entries: list[Entry] = []
        self.out.mkdir(parents=True, exist_ok=True)

    def shoot(self, group: str, name: str, windows: list[Window], *, note: str = "") -> Entry:
        """A picture of each window as it is now, with axe-core's findings, its console errors and
        whether it scrolls sideways."""
        from axe_playwright_python.sync_playwright import Axe

        entry = Entry(group, name, note)
        slug = re.sub(r"[^a-z0-9]+", "-", f"{group}-{name}".lower()).strip("-")
        for window in windows:
            page = window.page
            page.wait_for_timeout(200)  # htmx's load triggers, the last swap's settle
            problems = list(window.errors)
            window.errors.clear()
            problems += [f"CSP: {v}" for v in page.evaluate("() => window.__cspViolations || []")]
            page.evaluate("() => { window.__cspViolations = []; }")
            overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                problems.append(f"scrolls sideways: {overflow} px wider than the window")
            results = Axe().run(page)
            for violation in results.response["violations"]:
                targets = "; ".join(str(node["target"][0]) for node in violation["nodes"][:6])
                problems.append(f"axe {violation['id']} ({violation['impact']}): {targets}")
            path = f"{slug}-{window.width}.png"
            page.screenshot(path=str(self.out / path), full_page=True)
            entry.shots[window.width] = Shot(window.width, path, page.url, problems)
        self.entries.append(entry)
        found = sum(len(shot.problems) for shot in entry.shots.values())
        say(f"  {group}: {name}" + (f"  ({found} problem{'s' if found != 1 else ''})" if found else ""))
        return entry

    def keep(self, group: str, name: str, filename: str, content: bytes, *, entry: Entry | None = None) -> None:
        """A file the gallery links to (an export), beside the pictures."""
        (self.out / filename).write_bytes(content)
        if entry is None:
            entry = Entry(group, name)
            self.entries.append(entry)
        entry.links.append((name, filename))

    def failed(self, name: str, error: Exception) -> None:
        """A part of the tour that could not be made: listed in the index as a problem."""
        message = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        entry = Entry("Could not be made", name)
        entry.shots["desktop"] = Shot("desktop", "", "", [message])
        self.entries.append(entry)
        say(f"  could not make {name}: {message}")

    def problems(self) -> int:
        return sum(len(shot.problems) for entry in self.entries for shot in entry.shots.values())

    def write_index(self, started: datetime, seconds: float) -> Path:
        groups: dict[str, list[Entry]] = {}
        for entry in self.entries:
            groups.setdefault(entry.group, []).append(entry)
        pictures = sum(len(entry.shots) for entry in self.entries)
        parts = [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            "<title>Faultline page gallery</title><style>",
            "body{font-family:system-ui,sans-serif;margin:1rem 2rem;color:#111;background:#fbfaf7}",
            "h2{margin-top:2.5rem;border-bottom:2px solid #c8102e}",
            "table{border-collapse:collapse;width:100%}td,th{vertical-align:top;padding:.5rem;border-top:1px solid #ddd}",
            "th{text-align:left;width:14rem}img{border:1px solid #bbb;display:block}",
            ".desktop img{width:680px}.phone img{width:195px}.ok{color:#1d6b3a}.bad{color:#c8102e}",
            "ul{margin:.3rem 0;padding-left:1.1rem;font-size:.8rem}nav a{margin-right:1rem}",
            "</style></head><body>",
            "<h1>Faultline: every page, at 1360 and 390 px</h1>",
            f"<p>{started:%Y-%m-%d %H:%M} UTC, {seconds:.0f} s, {pictures} pictures; "
            f"axe-core on each (every impact, minor included), console errors (404s included), "
            "sideways scrolling. Made by <code>make pages</code>.</p>",
            f"<p class='{'bad' if self.problems() else 'ok'}'><strong>{self.problems()} problem(s) found.</strong></p>",
            "<nav>" + "".join(f"<a href='#{html.escape(g)}'>{html.escape(g)}</a>" for g in groups) + "</nav>",
        ]
        for group, entries in groups.items():
            parts.append(f"<h2 id='{html.escape(group)}'>{html.escape(group)}</h2><table>")
            for entry in entries:
                parts.append(f"<tr><th scope='row'>{html.escape(entry.name)}")
                if entry.note:
                    parts.append(f"<p><small>{html.escape(entry.note)}</small></p>")
                for label, path in entry.links:
                    parts.append(f"<p><a href='{html.escape(path)}'>{html.escape(label)}</a></p>")
                parts.append("</th>")
                for width in WIDTHS:
                    shot = entry.shots.get(width)
                    if shot is None:
                        parts.append("<td></td>")
                        continue
                    parts.append(f"<td class='{width}'>")
                    if shot.path:
                        parts.append(
                            f"<a href='{html.escape(shot.path)}'>"
                            f"<img src='{html.escape(shot.path)}' alt='{html.escape(entry.name)} at {WIDTHS[width]} px' "
                            "loading='lazy'></a>"
                            f"<small>{WIDTHS[width]} px · {html.escape(shot.url)}</small>"
                        )
                    if shot.problems:
                        items = "".join(f"<li>{html.escape(p)}</li>" for p in shot.problems)
                        parts.append(f"<ul class='bad'>{items}</ul>")
                    else:
                        parts.append("<p class='ok'><small>clean</small></p>")
                    parts.append("</td>")
                parts.append("</tr>")
            parts.append("</table>")
        parts.append("</body></html>")
        index = self.out / "index.html"
        index.write_text("".join(parts), encoding="utf-8")
        return index


# ── the tour ─────────────────────────────────────────────────────────────────────────────────


class Tour:
    def __init__(self, *, browser, base_url: str, offline_url: str, model: GalleryModel, gallery: Gallery, db) -> None:
        self.browser = browser
        self.base_url = base_url
        self.offline_url = offline_url
        self.model = model
        self.gallery = gallery
        self.db = db
        self.storage_state = None
        self.project_id: int | None = None
        self.finished: dict[str, str] = {}  # mode -> its finished debate's id

    def windows(self, storage_state=None) -> list[Window]:
        return [Window(self.browser, width, storage_state) for width in WIDTHS]

    def close(self, windows: list[Window]) -> None:
        for window in windows:
            window.context.close()

    def visit(self, group: str, name: str, path: str, *, note: str = "", base: str | None = None) -> Entry:
        windows = self.windows(self.storage_state if base is None else self.offline_storage)
        try:
            for window in windows:
                window.goto((base or self.base_url) + path)
            return self.gallery.shoot(group, name, windows, note=note)
        finally:
            self.close(windows)

    # ── before logging in ──────────────────────────────────────────────────────────────────

    def signed_out(self) -> None:
        self.visit("Signed out", "home", "/")
        self.visit("Signed out", "log in", "/accounts/login/")
        self.visit("Signed out", "sign up", "/accounts/signup/")
        self.visit("Signed out", "a page that does not exist", "/no/such/page/")

    def log_in(self) -> None:
        context = self.browser.new_context()
        page = context.new_page()
        for base in (self.base_url, self.offline_url):
            page.goto(f"{base}/accounts/login/")
            page.fill("#id_username", "gallery")
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(re.compile(r".*/debates/new/$"))
        self.storage_state = context.storage_state()
        self.offline_storage = self.storage_state  # same host, another port: cookies are per host
        context.close()

    # ── a debate, from the setup page to its exports ───────────────────────────────────────

    def setup(self, page, mode: str, *, topic: str | None = None, pause: bool = True, project: bool = False) -> None:
        page.goto(f"{self.base_url}/debates/new/?mode={mode}")
        money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
        page.select_option("#id_deck", money)
        page.locator("#hand .persona-card", has_text=HANDS[mode][0]).wait_for()
        for name in HANDS[mode]:
            page.locator("#hand .persona-card", has_text=name).click()
        page.fill("#id_topic", topic or TOPICS[mode])
        if page.locator("input[name=length][value=short]").count():
            page.check("input[name=length][value=short]")
        if pause and page.is_visible("#id_pause_after_round"):
            page.check("#id_pause_after_round")
        if project and self.project_id:
            page.select_option("#id_context", f"project:{self.project_id}")

    def start(self, windows: list[Window], mode: str, **setup) -> str:
        desktop, phone = windows
        self.setup(desktop.page, mode, **setup)
        desktop.page.click("#start-debate")
        desktop.page.wait_for_url(re.compile(rf"{self.base_url}/debates/[0-9a-f-]{{36}}/$"))
        debate_id = desktop.page.url.rstrip("/").rsplit("/", 1)[1]
        phone.goto(desktop.page.url)
        desktop.settle()
        return debate_id

    def wait(self, windows: list[Window], script: str, timeout: int = DEBATE_TIMEOUT_MS) -> None:
        for window in windows:
            window.page.wait_for_function(script, timeout=timeout)

    def a_debate(self, mode: str) -> None:
        label = {"dialogue": "Dialogue", "graph": "Graph", "analyst_critic": "Analyst vs Critic"}.get(
            mode, "Collaborate"
        )
        windows = self.windows(self.storage_state)
        try:
            desktop, phone = windows
            # The setup page, this mode picked and a hand dealt.
            for window in windows:
                self.setup(window.page, mode, project=mode == "dialogue")
            self.gallery.shoot(label, "setup, a hand dealt", windows)
            phone.page.goto("about:blank")

            # The first seconds: a slow model, nothing said yet.
            self.model.slow_start = True
            debate_id = self.start(windows, mode, project=mode == "dialogue")
            for window in windows:
                window.page.wait_for_timeout(1500)
            self.gallery.shoot(
                label, "live, at start", windows, note=f"the model takes {SLOW_START_SECONDS:.0f} s a call"
            )

            # Mid-debate: a few messages in (a round of the two-role modes is two messages).
            said = 3 if mode in ("dialogue", "graph") else 1
            self.wait(windows, f"() => document.querySelectorAll('article.msg:not(.is-streaming)').length >= {said}")
            self.model.slow_for(SLOW_START_SECONDS + 4)  # still live while it is pictured
            self.gallery.shoot(label, "live, mid-debate", windows)

            # Paused after its first round (dialogue and graph: the first aspect; collaborate: the drafts).
            self.wait(windows, "() => !!document.querySelector('#continue-debate')")
            self.gallery.shoot(label, "paused", windows)
            while True:
                if desktop.page.is_visible("#continue-debate"):
                    # The status line is redrawn by every event: click what is there now, then
                    # wait for the page to take the Continue in (the button goes).
                    desktop.page.locator("#continue-debate").dispatch_event("click")
                    desktop.page.wait_for_function("() => !document.querySelector('#continue-debate')")
                desktop.page.wait_for_function(
                    "() => document.querySelector('#debate-banner.banner-completed')"
                    " || document.querySelector('#continue-debate')",
                    timeout=DEBATE_TIMEOUT_MS,
                )
                if desktop.page.locator("#debate-banner.banner-completed").count():
                    break
            phone.page.wait_for_selector("#debate-banner.banner-completed", timeout=60_000)
            self.gallery.shoot(label, "finished", windows)
            self.finished[mode] = debate_id
            self.close(windows)
            windows = []
            self.after(label, debate_id)
        finally:
            self.close(windows)

    def after(self, label: str, debate_id: str) -> None:
        """A finished debate's other pages: results, replay, summary, exports."""
        base = f"/debates/{debate_id}"
        self.visit(label, "results", f"{base}/results/")
        self.visit(label, "replay, step 0", f"{base}/replay/?step=0")
        last = self.db(
            lambda: __import__("debates.models", fromlist=["Debate"]).Debate.objects.get(pk=debate_id).last_seq
        )
        self.visit(label, "replay, half-way", f"{base}/replay/?step={last // 2}")
        self.visit(label, "replay, all at once", f"{base}/replay/")
        entry = self.visit(label, "exports: one-page summary", f"{base}/summary/")
        context = self.browser.new_context(storage_state=self.storage_state)
        for name, suffix in (
            ("Markdown export", "export.md"),
            ("JSON export", "export.json"),
            ("results as text", "results.md"),
        ):
            response = context.request.get(f"{self.base_url}{base}/{suffix}")
            slug = re.sub(r"[^a-z0-9]+", "-", label.lower())
            self.gallery.keep(label, name, f"{slug}-{suffix}", response.body(), entry=entry)
        context.close()

    def stopped_and_failed(self) -> None:
        """A dialogue stopped by its owner, one waiting for an overloaded model, and one that failed."""
        windows = self.windows(self.storage_state)
        try:
            desktop, _ = windows
            self.start(windows, "dialogue", topic="Will rates fall next year?", pause=False)
            self.wait(windows, "() => document.querySelectorAll('article.msg:not(.is-streaming)').length >= 2")
            desktop.page.click("#stop-debate")
            self.wait(windows, "() => !!document.querySelector('#debate-banner.banner-stopped')")
            self.gallery.shoot("Other states", "stopped by its owner", windows)

            self.model.overloaded = True
            self.start(windows, "graph", topic="Is a weak currency good for exporters?", pause=False)
            self.wait(windows, "() => !!document.querySelector('.status-waiting')", timeout=120_000)
            self.gallery.shoot("Other states", "waiting for the model", windows)
            self.model.overloaded = False
            self.wait(windows, "() => !document.querySelector('.status-waiting')", timeout=120_000)
            desktop.page.click("#stop-debate")
            self.wait(windows, "() => !!document.querySelector('#debate-banner.banner-stopped')")

            self.model.failing = True
            self.start(windows, "analyst_critic", topic="Should a saver hold gold?", pause=False)
            self.wait(
                windows,
                "() => !!document.querySelector('#debate-banner.banner-failed .failure-reason:not(:empty)')",
                timeout=120_000,
            )
            self.model.failing = False
            self.gallery.shoot("Other states", "failed", windows)
        finally:
            self.model.overloaded = self.model.failing = False
            self.close(windows)

    # ── the rest of the site ───────────────────────────────────────────────────────────────

    def setup_pages(self) -> None:
        self.visit("Setup", "setup, first visit", "/debates/new/")
        self.visit(
            "Setup",
            "setup, offline demo model",
            "/debates/new/",
            base=self.offline_url,
            note="the web process runs with FAULTLINE_LLM=local",
        )

    def the_rest(self) -> None:
        self.visit("Archive", "your debates", "/debates/")
        self.visit("Atlas", "the crux atlas", "/atlas/")
        card_id = self.db(_first_card_id)
        if card_id:
            self.visit("Atlas", "a crux and its predictions", f"/atlas/cards/{card_id}/")
        dialogue = self.finished.get("dialogue")
        if dialogue:
            self.visit("Memory", "what a debate recalled", f"/debates/{dialogue}/memory/")
        if self.project_id:
            self.visit("Memory", "a project's memory", f"/projects/{self.project_id}/memory/")
        persona_slug = self.db(_first_persona_slug)
        self.visit("Memory", "a persona's memories", f"/memory/personas/{persona_slug}/")
        self.visit("Memory", "facts to review", "/memory/facts/review/")
        self.visit("Persona studio", "personas", "/personas/")
        persona_pk = self.db(_first_persona_pk)
        self.visit("Persona studio", "a persona", f"/personas/{persona_pk}/")
        own = self.db(_own_persona_pk)
        if own:
            self.visit("Persona studio", "editing your own persona", f"/personas/{own}/edit/")
        self.visit("Persona studio", "import a contract", "/personas/import/")
        self.visit("Persona studio", "build from writing", "/personas/build/")
        self.visit("Persona studio", "a new deck", "/decks/new/")
        self.visit("Projects", "projects", "/projects/")
        self.visit("Projects", "a new project", "/projects/new/")
        if self.project_id:
            self.visit("Projects", "a project", f"/projects/{self.project_id}/")
            note_id = self.db(lambda: _first_note_id(self.project_id))
            if note_id:
                self.visit("Projects", "a note", f"/projects/{self.project_id}/notes/{note_id}/")
            document_id = self.db(lambda: _first_document_id(self.project_id))
            if document_id:
                self.visit("Projects", "a document", f"/projects/{self.project_id}/documents/{document_id}/")


def _first_card_id():
    from crux.models import CruxCard

    card = CruxCard.objects.order_by("id").first()
    return card.id if card else None


def _first_persona_slug():
    from personas.models import Persona

    return Persona.objects.filter(owner__isnull=True).order_by("name").first().persona_id


def _first_persona_pk():
    from personas.models import Persona

    return Persona.objects.filter(owner__isnull=True).order_by("name").first().pk


def _own_persona_pk():
    from personas.models import Persona

    own = Persona.objects.filter(owner__username="gallery").first()
    return own.pk if own else None


def _first_note_id(project_id):
    from projects.models import Note

    note = Note.objects.filter(project_id=project_id).order_by("id").first()
    return note.id if note else None


def _first_document_id(project_id):
    from projects.models import Document

    document = Document.objects.filter(project_id=project_id).order_by("id").first()
    return document.id if document else None


def _prepare(username: str) -> int:
    """A fresh database: the seed decks, the gallery's user, a project with a note and a document,
    and a persona of its own (cloned from a seed)."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from personas.models import Persona
    from projects.models import Document, Note, Project

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    call_command("loadseed", verbosity=0)
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    project = Project.objects.create(
        owner=user, name="Retirement plan", description="Where our savings go for the next thirty years."
    )
    Note.objects.create(project=project, title="What we know", content="# What we know\n\n- Fees compound.\n")
    text = "# Savings policy\n\nWe keep six months of spending in cash and the rest in broad index funds.\n"
    Document.objects.create(
        project=project,
        title="Savings policy",
        kind=Document.Kind.MARKDOWN,
        filename="savings-policy.md",
        size=len(text),
        text=text,
        status=Document.Status.READY,
    )
    seed = Persona.objects.filter(owner__isnull=True).order_by("name").first()
    Persona.objects.create(
        **{
            f.name: getattr(seed, f.name)
            for f in Persona._meta.concrete_fields
            if f.name not in ("id", "owner", "persona_id", "name", "created_at", "updated_at")
        },
        owner=user,
        persona_id="gallery-own-persona",
        name="My Cautious Saver",
    )
    return project.pk


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "reports" / "pages")
    parser.add_argument("--only", default=",".join(MODES), help="the modes whose debates are pictured")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds before every fake model call answers")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _interrupt)
    started, clock = datetime.now(UTC), time.monotonic()

    from ops import embedded
    from ops.launcher import celery_worker_command, daphne_command

    had = embedded_services_running()
    children: list[Child] = []
    api = db_pool = None
    gallery = Gallery(args.out)
    for old in args.out.glob("*"):
        if old.is_file():
            old.unlink()
    try:
        import django

        django.setup()  # starts the embedded services if they are not running
        from django.conf import settings

        from devtools.fake_messages_api import FakeMessagesAPI
        from devtools.scripted_debate import DebateScript
        from faultline.celery import app as celery_app

        db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")

        def db(function):
            return db_pool.submit(function).result(timeout=300)

        project_id = db(lambda: _prepare("gallery"))
        celery_app.control.purge()
        model = GalleryModel(
            DebateScript(dispute="persistent", surface_after=4, latency=args.latency, chunk_size=12, chunk_delay=0.03)
        )
        api = FakeMessagesAPI(responder=model.respond).start()
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": settings.DATABASE_URL,
            "REDIS_URL": settings.REDIS_URL,
            "FAULTLINE_LLM": "anthropic",
            "ANTHROPIC_API_KEY": "gallery",
            "ANTHROPIC_BASE_URL": api.url,
            "ANTHROPIC_MAX_RETRIES": "1",
            "DEBUG": "0",
        }
        log_dir = embedded.state_dir()
        hostname = f"gallery-{os.getpid()}@localhost"
        children.append(Child("worker", celery_worker_command(concurrency=4, hostname=hostname), env, log_dir))
        port, offline_port = free_port(), free_port()
        children.append(Child("daphne", daphne_command(host="127.0.0.1", port=port), env, log_dir))
        offline_env = {**env, "FAULTLINE_LLM": "local"}
        children.append(
            Child("daphne-offline", daphne_command(host="127.0.0.1", port=offline_port), offline_env, log_dir)
        )
        base_url, offline_url = f"http://127.0.0.1:{port}", f"http://127.0.0.1:{offline_port}"
        wait_for_http(base_url + "/accounts/login/", children[1], timeout=120)
        wait_for_http(offline_url + "/accounts/login/", children[2], timeout=120)
        deadline = time.monotonic() + 180
        while not celery_app.control.ping(destination=[hostname], timeout=1):
            if time.monotonic() > deadline or not children[0].running():
                raise RuntimeError(f"the Celery worker did not start; see {log_dir}/worker.log")
        say(f"services up: a worker, daphne on {base_url} (and {offline_url} with the offline model)")

        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            tour = Tour(
                browser=browser, base_url=base_url, offline_url=offline_url, model=model, gallery=gallery, db=db
            )
            tour.project_id = project_id
            tour.signed_out()
            tour.log_in()
            tour.setup_pages()
            steps = [(f"{mode} debate", lambda mode=mode: tour.a_debate(mode)) for mode in args.only.split(",") if mode]
            steps += [("other states", tour.stopped_and_failed), ("the rest of the site", tour.the_rest)]
            for name, step in steps:
                say(f"{name}:")
                try:
                    step()
                except Exception as exc:  # one part failing leaves the rest of the gallery to be made
                    gallery.failed(name, exc)
            browser.close()
        index = gallery.write_index(started, time.monotonic() - clock)
        say(f"\n{len(gallery.entries)} pages, {gallery.problems()} problem(s): {index}")
        if gallery.problems():
            sys.exit(1)
    finally:
        for child in reversed(children):
            child.stop()
        if api is not None:
            api.stop()
        if db_pool is not None:
            from django.db import connections

            db_pool.submit(connections.close_all).result(10)
            db_pool.shutdown()
        stopped = stop_embedded_services_started(had)
        if stopped:
            say("stopped the embedded " + " and ".join(stopped))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        say("interrupted; everything the gallery started is stopped")
        sys.exit(130)
