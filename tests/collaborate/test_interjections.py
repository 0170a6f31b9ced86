"""The owner's interjection in a Collaborate debate: posted while the roles draft, it is read at the
start of the next phase (both revisions' prompts show it), the role it is addressed to answers it
with its revision, and the results page and export show it."""

import threading
import time

import pytest
from django.db import connection

from debates.exports import debate_markdown
from debates.models import Debate, Interjection, Message
from debates.selectors import debate_view
from debates.services.interjections import InterjectionDraft, interjection_post
from devtools.fake_messages_api import user_text
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)
ASKED = "Plan for a sudden tenfold spike in reads"


def _post_while_drafting(debate_id, done: threading.Event) -> None:
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if Message.objects.filter(debate_id=debate_id, kind="draft").exists():
                interjection_post(
                    debate=Debate.objects.get(pk=debate_id),
                    draft=InterjectionDraft(text=ASKED, to_name="Reviewer", kind="challenge"),
                )
                return
            time.sleep(0.005)
    finally:
        connection.close()
        done.set()


def test_an_interjection_during_the_drafts_is_answered_by_the_addressed_role_in_its_revision(
    collab_api, new_collaboration
):
    script = collab_api(chunk_delay=0.05)
    debate = new_collaboration()
    posted = threading.Event()
    threading.Thread(target=_post_while_drafting, args=(debate.id, posted)).start()

    debate = debate_run(debate_id=debate.id)
    posted.wait(10)

    assert debate.status == Debate.Status.COMPLETED
    drafts = [b for b, c in zip(script.requests, script.calls, strict=True) if c.phase == "collaborate_draft"]
    revisions = [b for b, c in zip(script.requests, script.calls, strict=True) if c.phase == "collaborate_revision"]
    assert not any(ASKED in user_text(body) for body in drafts)  # the drafts were under way
    assert len(revisions) == 2 and all(ASKED in user_text(body) for body in revisions)
    interjection = Interjection.objects.get(debate=debate)
    assert interjection.read_at_turn == 3
    assert interjection.answer.kind == Message.Kind.REVISION and interjection.answer.persona.name == "Reviewer"
    markdown = debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    assert ASKED in markdown and "answered by Reviewer" in markdown


def test_a_run_that_follows_a_dead_one_marks_what_the_finished_revisions_answered(collab_api, new_collaboration):
    collab_api()
    debate = new_collaboration()
    debate_run(debate_id=debate.id)
    # As if the worker died right after both revisions were written: the interjection the
    # revisions read was taken up at turn 3 but not yet marked answered; the artifact never begun.
    revision = Message.objects.get(debate=debate, turn=4)  # the Reviewer's
    interjection = Interjection.objects.create(
        debate=debate, seq=99, kind="challenge", text=ASKED, to_persona=revision.persona, read_at_turn=3
    )
    Message.objects.filter(debate=debate, turn=5).delete()
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, results={}, phase="revising")

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    assert Interjection.objects.get(pk=interjection.pk).answer == revision
