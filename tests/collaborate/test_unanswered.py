"""A role that wrote nothing, or whose model call failed, is recorded as unanswered: its message
holds no text (no placeholder speaks for it), the page, the replay and the exports say so in their
own voice, and the results and the verdict treat the role as unanswered."""

import json
import re

import pytest

from debates import fragments
from debates.exports import _message_md, md_escape
from debates.models import Message
from debates.payloads import EventKind
from debates.selectors import debate_events, debate_view
from debates.state import DebateView, MessageView, apply, unanswered_notice
from gateways.llm.fake_messages_api import Reply
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)

SILENT = "The Architect wrote nothing this round."
FAILED = "The Reviewer could not answer: its model call failed."
# Nothing left open, so only the roles' answers decide the verdict.
SETTLED = "# URL shortener design\n\n## Storage\n\n- Postgres, base62 keys"
PLACEHOLDERS = ("(no answer)", "could not answer: its model call failed.)")


@pytest.fixture
def unanswered(collab_api, new_collaboration, user):
    collab_api(silent=["architect"], fail=["reviewer"], artifact=SETTLED)
    return debate_run(debate_id=new_collaboration(owner=user).id)


def notices(html: str) -> list[str]:
    return re.findall(r'<p id="msg-text-\d+" class="msg-text msg-unanswered" role="note">([^<]*)</p>', html)


def test_no_message_holds_a_placeholder_and_the_results_read_the_record(unanswered):
    roles = Message.objects.filter(debate=unanswered, kind__in=["draft", "revision"]).order_by("turn")
    assert [(m.turn, m.text, m.unanswered) for m in roles] == [
        (1, "", Message.Unanswered.WROTE_NOTHING),
        (2, "", Message.Unanswered.CALL_FAILED),
        (3, "", Message.Unanswered.WROTE_NOTHING),
        (4, "", Message.Unanswered.CALL_FAILED),
    ]
    artifact = Message.objects.get(debate=unanswered, kind="artifact")
    assert artifact.text == SETTLED and artifact.unanswered == ""
    turns = {m.id: m.turn for m in roles}
    completed = [p for _, kind, p in debate_events(debate_id=unanswered.id) if kind == EventKind.MESSAGE_COMPLETED]
    said = sorted((turns[p["message_id"]], p["text"], p["unanswered"]) for p in completed if p["message_id"] in turns)
    assert said == [(1, "", "wrote_nothing"), (2, "", "call_failed"), (3, "", "wrote_nothing"), (4, "", "call_failed")]

    # The results and the verdict read the record, not the text: both roles are unanswered.
    results = unanswered.results
    assert results["unanswered"] == [
        "Architect first answer",
        "Architect revision",
        "Reviewer first answer",
        "Reviewer revision",
    ]
    assert results["regime"] == "undetermined"
    assert "the Architect's not recorded, the Reviewer's not recorded" in results["regime_basis"]
    assert results["artifact"] == SETTLED and results["synthesised"]


def test_the_live_page_the_pushed_fragments_and_the_replay_show_a_notice_not_speech(unanswered, owner_client):
    page = owner_client.get(f"/debates/{unanswered.id}/").content.decode()
    column_0, column_1 = page.split('id="collab-column-0"')[1].split('id="collab-column-1"')
    assert notices(column_0) == [SILENT, SILENT]
    assert notices(column_1.split('id="collab-artifact"')[0]) == [FAILED, FAILED]
    assert page.count('class="msg seat-0 is-unanswered"') == 2 and page.count('class="msg seat-1 is-unanswered"') == 2

    view, pushed = DebateView(debate_id=str(unanswered.id)), []
    for seq, kind, payload in debate_events(debate_id=unanswered.id):
        apply(view, seq, kind, payload)
        if kind == EventKind.MESSAGE_COMPLETED:
            pushed.append(fragments.for_event(view, kind, payload))
    assert sorted(notice for html in pushed for notice in notices(html)) == sorted([SILENT, SILENT, FAILED, FAILED])

    replay = owner_client.get(f"/debates/{unanswered.id}/replay/?step=999").content.decode()
    assert sorted(notices(replay)) == sorted([SILENT, SILENT, FAILED, FAILED])
    for html in (page, replay, *pushed):
        assert not any(placeholder in html for placeholder in PLACEHOLDERS)


def test_the_exports_say_the_role_wrote_nothing_in_their_own_voice(unanswered, owner_client):
    markdown = owner_client.get(f"/debates/{unanswered.id}/export.md").content.decode()
    assert markdown.count(f"_{SILENT}_") == 2 and markdown.count(f"_{FAILED}_") == 2
    assert f"> {SILENT}" not in markdown  # a note about the role, not quoted as its words
    assert not any(placeholder in markdown for placeholder in PLACEHOLDERS)

    document = json.loads(owner_client.get(f"/debates/{unanswered.id}/export.json").content)
    assert "(no answer)" not in json.dumps(document)
    view = debate_view(debate_id=unanswered.id)
    shown = sorted((m.message.turn, m.message.unanswered) for m in view.chat if m.message)
    assert shown == [(1, "wrote_nothing"), (2, "call_failed"), (3, "wrote_nothing"), (4, "call_failed"), (5, "")]


def test_a_stand_in_artifact_notes_a_role_that_wrote_nothing_without_speaking_for_it(collab_api, new_collaboration):
    collab_api(silent=["architect"], artifact=Reply(status=400, error_type="invalid_request_error"))
    debate = debate_run(debate_id=new_collaboration().id)

    text = debate.results["artifact"]
    assert "## Architect\n\n_(The Architect wrote nothing.)_\n\n## Reviewer\n\n## Reviewer: Revised answer" in text
    assert "(no answer)" not in text and not debate.results["synthesised"]
    assert debate.results["unanswered"] == ["Architect first answer", "Architect revision"]


@pytest.mark.parametrize(
    ("kind", "seat", "unanswered", "shown"),
    [
        ("draft", 0, "wrote_nothing", "The Architect wrote nothing this round."),
        ("revision", 1, "call_failed", "The Reviewer could not answer: its model call failed."),
        # Outside the two roles' columns the notice names the persona, escaped like any name.
        ("opening", 2, "wrote_nothing", "&lt;img src=x onerror=alert(1)&gt; wrote nothing this round."),
    ],
)
def test_the_notice_names_the_role_and_is_escaped(kind, seat, unanswered, shown):
    message = MessageView(
        id=7,
        persona_id=1,
        persona_name="<img src=x onerror=alert(1)>",
        seat=seat,
        kind=kind,
        turn=1,
        streaming=False,
        unanswered=unanswered,
    )
    assert notices(fragments.message(message)) == [shown]
    assert "<img" not in fragments.message(message)
    assert f"_{md_escape(unanswered_notice(message))}_" in "\n".join(_message_md(message))
