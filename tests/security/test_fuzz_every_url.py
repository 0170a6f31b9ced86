"""Bad input never makes a 500: every URL pattern the resolver knows, and every form its pages
show, is visited with a NUL, a 5,000-digit number and a 300-character string in each path
argument, query parameter and form field, anonymously and logged in (as a superuser who owns one
of everything, so the admin's forms are visited too). Each answer must be below 500: a 400 or 404,
a redirect, or the form again with its error."""

from __future__ import annotations

import re
import uuid
from html.parser import HTMLParser
from urllib.parse import quote, urlencode, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from atlas.models import Prediction
from crux.models import CruxCard
from debates.models import Debate, UserQuota
from debates.services.lifecycle import debate_share
from memory.models import Insight, PersonaMemory
from personas.models import PersonaBuild
from projects.models import Assignment, Document, Note, Project, Repository
from tests.atlas.builders import debate_with_cards
from tests.factories import DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db

NUL = "a\x00b"
DIGITS = "9" * 5000
LONG = "x" * 300
FUZZ = {"nul": NUL, "digits": DIGITS, "long": LONG}
# Query parameters the views read (and a few they do not): each gets every fuzz value.
QUERY_NAMES = [
    "q", "page", "mode", "step", "persona", "personas", "deck", "next", "topic", "swap_out", "swap_in", "fmt",
    "live", "project", "card", "what", "text", "length", "context", "o", "p", "all", "_changelist_filters",
]  # fmt: skip


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


ROUTES = list(dict.fromkeys(_walk(get_resolver().url_patterns)))
_PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


@pytest.fixture
def world(db):
    """Alice, a superuser, with one of everything a URL can name; the values for its parameters."""
    alice = get_user_model().objects.create_superuser("alice", "alice@example.com", "a-long-test-passphrase-42")
    personas = [PersonaFactory(persona_id=f"fuzz-{n}", name=f"Fuzz {n}", owner=alice) for n in range(3)]
    deck = DeckFactory(slug="fuzz-deck", name="Fuzz deck", personas=personas)
    deck.owner = alice
    deck.save()
    project = Project.objects.create(owner=alice, name="Fuzz project")
    assignment = Assignment.objects.create(project=project, name="Task", checklist=[{"text": "One", "done": False}])
    document = Document.objects.create(project=project, title="Doc", kind="md", filename="d.md", size=3, text="# D")
    repository = Repository.objects.create(project=project, name="repo", source="archive", filename="r.zip")
    debate = debate_with_cards(
        alice,
        topic="Is fuzzing worth it?",
        personas=personas[:2],
        deck=deck,
        cards=[("Does it find bugs?", {personas[0]: "YES", personas[1]: "NO"}, {personas[0]: "By 2030"}, False)],
    )
    Debate.objects.filter(pk=debate.pk).update(context_project=project, context_type="project")
    note = Note.objects.create(project=project, title="Note", content="Some *text*.", debate=debate)
    card = CruxCard.objects.get(debate=debate)
    prediction = Prediction.objects.create(card=card, persona=personas[0], claim="x", settled_by="y")
    fact = Insight.objects.create(
        owner=alice, project=project, kind="agreed", text="A fact", confidence=0.9, review="candidate"
    )
    memory = PersonaMemory.objects.create(owner=alice, persona=personas[0], kind="position", text="I", importance=5)
    build = PersonaBuild.objects.create(owner=alice, name="Build", corpus={"documents": []})
    UserQuota.objects.create(user=alice)
    token = debate_share(debate=debate)
    values = {
        "project_id": project.pk,
        "assignment_id": assignment.pk,
        "index": 0,
        "document_id": document.pk,
        "repository_id": repository.pk,
        "note_id": note.pk,
        "debate_id": debate.pk,
        "token": token,
        "persona_id": personas[0].persona_id,
        "insight_id": fact.pk,
        "memory_id": memory.pk,
        "card_id": card.pk,
        "prediction_id": prediction.pk,
        "persona_pk": personas[2].pk,
        "fmt": "md",
        "app_label": "projects",
        "url": "projects/",
        "id": alice.pk,
        "content_type_id": "1",
        "uidb64": "MQ",
    }
    pks = {"personas/build/": build.pk, "personas/": personas[0].pk, "decks/": deck.pk, "admin/": personas[0].pk}
    objects = {"auth/user": alice.pk, "projects/note": note.pk, "memory/insight": fact.pk, "personas/deck": deck.pk}
    return alice, values, pks, objects


def _real_value(route: str, name: str, world) -> str:
    _, values, pks, objects = world
    if name == "pk":
        return str(next(pk for prefix, pk in pks.items() if route.startswith(prefix)))
    if name == "object_id":
        return str(next((pk for model, pk in objects.items() if f"/{model}/" in route), 1))
    return str(values.get(name, "1"))


def _urls(route: str, world) -> list[str]:
    """The route with real values, then with each argument in turn replaced by each fuzz value
    (its converter permitting: an int or uuid converter refuses text before any view runs)."""
    matches = list(_PARAMETER.finditer(route))

    def build(replaced: dict[int, str]) -> str:
        path, last = "", 0
        for index, match in enumerate(matches):
            name = match.group("name") or match.group("group")
            value = replaced.get(index, _real_value(route, name, world))
            path += route[last : match.start()] + quote(value, safe="")
            last = match.end()
        return "/" + (path + route[last:]).replace("^", "").replace("$", "")

    urls = [build({})]
    for index, match in enumerate(matches):
        converter = match.group("converter") or ("str" if match.group("name") else "regex")
        if converter == "int":
            urls += [build({index: DIGITS}), build({index: "9" * 25})]
        elif converter == "uuid":
            urls.append(build({index: str(uuid.uuid4())}))
        else:
            urls += [build({index: NUL}), build({index: LONG}), build({index: DIGITS})]
    return urls


# What an empty field of each input type is given, so that each field is fuzzed beside valid others.
FILLED = {"email": "fuzz@example.com", "url": "https://example.com/", "number": "1", "date": "2030-01-01"}


class Forms(HTMLParser):
    """The forms on a page: action, method and the fields with their values (an empty one
    filled with something plausible)."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None
        self._textarea: str | None = None
        self.feed(html)

    def handle_data(self, data):
        if self._textarea and self.forms:
            self.forms[-1]["fields"][self._textarea] += data

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attrs.get("action"), "method": (attrs.get("method") or "get").lower()})
            self.forms[-1]["fields"] = {}
            return
        if not self.forms or not attrs.get("name"):
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and attrs.get("type") not in ("submit", "button", "image", "file", "reset"):
            if attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                fields.setdefault(attrs["name"], "")
            else:
                fields[attrs["name"]] = attrs.get("value") or FILLED.get(attrs.get("type"), "Fuzz value")
        elif tag == "textarea":
            self._textarea = attrs["name"]
            fields[attrs["name"]] = ""
        elif tag == "select":
            self._select = attrs["name"]
            fields.setdefault(attrs["name"], "")
        elif tag == "option" and self._select and not fields[self._select]:
            fields[self._select] = attrs.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea and self.forms:
            fields = self.forms[-1]["fields"]
            fields[self._textarea] = fields[self._textarea].strip("\n") or "Fuzz value"
            self._textarea = None


def _answer(client, method: str, url: str, data=None):
    call = client.get if method == "get" else client.post
    try:
        return call(url, data or {}).status_code
    except Exception as exc:  # the test client re-raises a view's exception; that is a 500 too
        return f"500 ({exc.__class__.__name__}: {str(exc)[:120]})"


@pytest.mark.parametrize("route", ROUTES)
def test_no_url_or_form_answers_bad_input_with_a_server_error(client, world, route):
    user = world[0]
    # Two clients, each logged in (or not) once: logging in again per request cost half the time.
    anonymous = Client(raise_request_exception=True)
    client.raise_request_exception = True
    client.force_login(user)
    assert client.get("/projects/").status_code == 200, "logged in, alice sees her projects"
    failures = []

    def check(method, url, data=None, who=None):
        status = _answer(client if who else anonymous, method, url, data)
        if route == "healthz" and status == 503:
            return  # /healthz answers 503 while a part is down (here: no worker), by design
        if not isinstance(status, int) or status >= 500:
            shown = {key: (value[:12] + "…" if len(value) > 12 else value) for key, value in (data or {}).items()}
            failures.append(f"{method.upper()} {url[:160]} {shown} as {'alice' if who else 'anonymous'}: {status}")

    # The real URL gets every fuzz value in every query parameter and body field; each fuzzed path
    # argument is asked for plainly (its query and body would test the same view twice).
    real, *fuzzed_paths = _urls(route, world)
    for who in (None, user):
        check("get", real, who=who)
        for value in FUZZ.values():
            query = {name: value for name in QUERY_NAMES}
            check("get", real + "?" + urlencode(query), who=who)
            check("post", real, query, who=who)
        for url in fuzzed_paths:
            check("get", url, who=who)
            check("post", url, {name: "1" for name in QUERY_NAMES}, who=who)

    # Every form on the page (as alice, who may see it), each field in turn given each fuzz value.
    page = client.get(real)
    if page.status_code == 200 and "html" in page.get("Content-Type", ""):
        for form in Forms(page.content.decode()).forms:
            action = urlsplit(form["action"] or real).path or real
            for field in form["fields"]:
                for value in FUZZ.values():
                    check(form["method"], action, {**form["fields"], field: value}, who=user)
    assert failures == [], "\n".join(failures[:40])
