"""Notes: saved from a finished debate's results, listed and searched on the project page,
edited as Markdown, rendered safely."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from debates.models import Debate
from debates.services.lifecycle import debate_create
from projects.models import Note

pytestmark = pytest.mark.django_db

HOSTILE_MARKDOWN = """# Findings

<script>window.__xss = 1</script>
<img src=x onerror="window.__xss = 2">
[click me](javascript:window.__xss=3)
[data](data:text/html,<script>alert(1)</script>)
<a href="#" onclick="window.__xss=4">raw link</a>
<iframe src="https://evil.example"></iframe>
<style>body{display:none}</style>

**Bold** and a [real link](https://example.org/paper).
"""


def test_saving_a_finished_debate_makes_a_note_in_the_project(owner_client, project, finished_debate):
    response = owner_client.post(reverse("debate_save_note", args=[finished_debate.id]), {"project": project.pk})

    note = Note.objects.get(debate=finished_debate)
    assert response.status_code == 302 and response["Location"] == reverse("note_detail", args=[project.pk, note.pk])
    assert note.project == project
    assert note.title == "Debate: Should the thesis use the Lisbon data?"
    assert note.tags == ["debate", "dialogue", "project"]
    assert "## Results" in note.content and "Is the Lisbon data representative?" in note.content
    assert "- Context: Project “Thesis”" in note.content
    page = owner_client.get(reverse("note_detail", args=[project.pk, note.pk])).content.decode()
    assert "<h2>Results</h2>" in page and reverse("debate_live", args=[finished_debate.id]) in page


def test_a_debate_still_running_cannot_be_saved_yet(owner_client, user, personas, project):
    debate = debate_create(owner=user, topic="Still going?", personas=personas[:2], context=project)

    response = owner_client.post(reverse("debate_save_note", args=[debate.id]), {"project": project.pk}, follow=True)

    assert "This debate has no results yet: save it to a project once it has finished." in response.content.decode()
    assert not Note.objects.exists()
    assert Debate.objects.get().status == Debate.Status.PENDING


def test_the_project_page_lists_and_searches_notes_debates_and_documents(owner_client, project, finished_debate):
    Note.objects.create(project=project, title="Lisbon sampling worries", content="Too few stations.")
    Note.objects.create(project=project, title="Budget", content="Printing costs.", tags=["admin"])
    url = reverse("project_detail", args=[project.pk])

    everything = owner_client.get(url).content.decode()
    assert "Lisbon sampling worries" in everything and "Budget" in everything
    assert finished_debate.topic in everything and "Plan" in everything

    found = owner_client.get(url, {"q": "stations"}).content.decode()
    assert "Lisbon sampling worries" in found and "Budget" not in found
    assert finished_debate.topic not in found

    by_tag = owner_client.get(url, {"q": "admin"}).content.decode()
    assert "Budget" in by_tag and "Lisbon sampling worries" not in by_tag

    nothing = owner_client.get(url, {"q": "zebra"}).content.decode()
    assert "No note matches “zebra”." in nothing and "No debate matches “zebra”." in nothing


def test_a_note_is_edited_as_markdown(owner_client, project, note):
    url = reverse("note_edit", args=[project.pk, note.pk])

    response = owner_client.post(url, {"title": "Better title", "content": "- one\n- two", "tags_text": "a, b  a"})

    note.refresh_from_db()
    assert response.status_code == 302
    assert (note.title, note.content, note.tags) == ("Better title", "- one\n- two", ["a", "b"])
    page = owner_client.get(reverse("note_detail", args=[project.pk, note.pk])).content.decode()
    assert "<li>one</li>" in page


def test_an_empty_title_is_refused(owner_client, project, note):
    response = owner_client.post(reverse("note_edit", args=[project.pk, note.pk]), {"title": " ", "content": "x"})

    assert "Give the note a title." in response.content.decode()
    note.refresh_from_db()
    assert note.title == "A note"


class Elements(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.found: list[tuple[str, dict]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def test_a_hostile_markdown_note_renders_inert(owner_client, project):
    note = Note.objects.create(project=project, title="<script>window.__xss=5</script>", content=HOSTILE_MARKDOWN)

    page = owner_client.get(reverse("note_detail", args=[project.pk, note.pk])).content.decode()
    body = page.split('id="note-body">', 1)[1].split("</article>", 1)[0]

    assert "<h1>Findings</h1>" in body and "<strong>Bold</strong>" in body
    assert '<a href="https://example.org/paper" rel="noopener noreferrer nofollow">real link</a>' in body
    elements = Elements(body).found
    assert {tag for tag, _ in elements} <= {"h1", "p", "strong", "a", "em"}
    assert [attrs["href"] for tag, attrs in elements if tag == "a"] == ["https://example.org/paper"]
    assert not [name for _, attrs in elements for name in attrs if name.startswith("on") or name == "style"]
    assert "<script>window.__xss" not in page  # the title and the copy source are escaped too


def test_a_crux_card_is_saved_on_its_own_while_the_debate_runs(owner_client, user, personas, project):
    from debates.services.lifecycle import debate_create
    from tests.debates.log_builder import DebateLog

    debate = debate_create(owner=user, topic="Lisbon or Porto?", personas=personas[:2], context=project)
    log = DebateLog(debate).start()
    room = log.open_room(personas[0], personas[1], "Is Lisbon's sample big enough?")
    card = log.post_card(room, diagnosis="They disagree on what <b>enough</b> means.")

    live = owner_client.get(reverse("debate_live", args=[debate.id])).content.decode()
    assert f'data-save-card="{card.id}"' in live and 'name="card"' in live

    response = owner_client.post(
        reverse("debate_save_note", args=[debate.id]), {"project": project.pk, "card": card.id}
    )

    note = Note.objects.get()
    assert response["Location"] == reverse("note_detail", args=[project.pk, note.pk])
    assert note.title == "Crux: Is Lisbon's sample big enough?"
    assert note.tags == ["crux", "dialogue", "project"] and note.debate == debate
    assert "From the debate: Lisbon or Porto?" in note.content
    assert "Diagnosis: They disagree on what &lt;b&gt;enough&lt;/b&gt; means." in note.content
    page = owner_client.get(reverse("note_detail", args=[project.pk, note.pk])).content.decode()
    assert "<b>enough</b>" not in page


def test_a_card_from_another_debate_is_refused(owner_client, project, finished_debate):
    response = owner_client.post(
        reverse("debate_save_note", args=[finished_debate.id]), {"project": project.pk, "card": "999999"}, follow=True
    )
    assert "That crux card is not part of this debate." in response.content.decode()
    assert not Note.objects.exists()
