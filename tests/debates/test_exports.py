import json

import pytest

from tests.debates.log_builder import sample_results

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(debate, log, personas):
    log.start()
    log.say(personas[0], "Gold has held value for millennia.", kind="opening")
    log.pass_turn(personas[2])
    room = log.open_room(personas[0], personas[1], "Is gold a hedge?")
    log.say(personas[0], "It is.", kind="entry", room=room)
    log.close_room(room)
    log.post_card(room)
    log.complete(sample_results("Is gold a hedge?", names=("Ada Hardmoney", "Bram Macro")))
    return debate


def test_markdown_export_is_a_download(owner_client, finished):
    response = owner_client.get(f"/debates/{finished.id}/export.md")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="faultline-is-hard-money-the-future-')
    assert response["Content-Disposition"].endswith('.md"')
    assert response["X-Content-Type-Options"] == "nosniff"


def test_markdown_export_has_the_whole_debate(owner_client, finished):
    text = owner_client.get(f"/debates/{finished.id}/export.md").content.decode()

    assert text.startswith("# Is hard money the future?\n")
    assert "**Ada Hardmoney** · opening\n> Gold has held value for millennia." in text
    assert "_Cleo Central passes._" in text
    assert "## Crux rooms" in text and "It is." in text
    assert "## Crux cards" in text and "- **Ada Hardmoney**: YES" in text
    assert "## Results" in text and "Where it landed: **Polarized: they split on an open question" in text
    assert "Regime:" not in text
    assert "### Fault lines" in text and "YES: Ada Hardmoney; NO: Bram Macro" in text


def test_json_export_is_the_event_log_and_the_folded_summary(owner_client, finished):
    response = owner_client.get(f"/debates/{finished.id}/export.json")

    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].endswith('.json"')
    assert response["X-Content-Type-Options"] == "nosniff"
    document = json.loads(response.content)
    assert document["format"] == "faultline-debate/1"
    assert document["debate"]["id"] == str(finished.id)
    assert [event["seq"] for event in document["events"]] == list(range(1, finished.events.count() + 1))
    assert document["events"][0]["kind"] == "debate_started"
    summary = document["summary"]
    assert summary["status"] == "completed"
    assert summary["message_count"] == 1
    assert summary["chat"][0]["message"]["text"] == "Gold has held value for millennia."
    assert summary["cards"][0]["question"] == "Is gold a hedge?"
    assert summary["results"]["regime"] == "polarized"


def test_exports_need_the_owner(client, other_user, finished):
    client.force_login(other_user)

    assert client.get(f"/debates/{finished.id}/export.md").status_code == 404
    assert client.get(f"/debates/{finished.id}/export.json").status_code == 404


def test_a_hostile_topic_with_newlines_exports_as_one_heading(owner_client, make_debate, personas):
    from tests.debates.log_builder import DebateLog

    hostile = "Is gold dead?\n# Fake heading\r\n## Results\u2028- injected item\x0b\x0c### and more"
    debate = make_debate(topic=hostile)
    log = DebateLog(debate).start()
    room = log.open_room(personas[0], personas[1], "Long run?\n## Fake room heading")
    log.say(personas[0], "A message may keep\nits own lines.", kind="entry", room=room)

    text = owner_client.get(f"/debates/{debate.id}/export.md").content.decode()

    lines = text.splitlines()
    assert lines[0] == "# Is gold dead? # Fake heading ## Results - injected item ### and more"
    headings = [line for line in lines if line.startswith("#")]
    assert headings == [
        lines[0],
        "## Main channel",
        "## Crux rooms",
        "### ♠ Ada Hardmoney vs Bram Macro: Long run? ## Fake room heading",
    ]
    assert "> A message may keep\n> its own lines." in text, "message text keeps its lines, quoted"
