"""The live page of an Analyst/Critic debate: role-labelled messages, the consensus score in the
status line, the synthesis and points in the results, every model-written word kept inert."""

import pytest

from debates import fragments
from debates.models import Event
from debates.payloads import EventKind
from debates.selectors import debate_view
from orchestration.run import debate_run
from tests.analyst_critic.conftest import A, assessment

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'
LIVE_MARKUP = ["<script>alert(1)", "<img src=x", 'onerror="alert(2)"']


def test_the_live_page_labels_the_roles_and_shows_the_consensus_score_escaped(
    critic_api, new_ac_debate, owner_client, user, client, django_user_model
):
    critic_api(
        [
            assessment(agreed=[A], disagreed=[f"Fees {HOSTILE} compound"]),
            assessment(agreed=[A, f"Fees {HOSTILE} compound"]),
        ],
        hostile=HOSTILE,
    )
    debate = debate_run(debate_id=new_ac_debate(owner=user, max_rounds=3).id)
    assert debate.results["status"] == "consensus"

    page = owner_client.get(f"/debates/{debate.id}/").content.decode()

    assert 'class="msg-kind">Analyst<' in page and 'class="msg-kind">Critic<' in page
    assert 'class="msg-kind">Synthesis<' in page
    assert '<span class="status-consensus-score">100% (round 2)</span>' in page
    assert "Consensus (100% of the points agreed after 2 rounds)" in page  # the verdict sentence
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for marker in LIVE_MARKUP:
        assert marker not in page

    # The pushed fragment of the first round's score carries it too.
    first = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq").first()
    html = fragments.for_event(debate_view(debate_id=debate.id, upto=first.seq), first.kind, first.payload)
    assert '<span class="status-consensus-score">50% (round 1)</span>' in html
    assert 'id="consensus-panel"' in html and "consensus-yellow" in html and "Contested" in html
    assert 'class="consensus-score consensus-green"' in page and "Agreed" in page
    for marker in LIVE_MARKUP:
        assert marker not in html

    other = django_user_model.objects.create_user("mallory", password="pw-for-mallory-123")
    client.force_login(other)
    assert client.get(f"/debates/{debate.id}/").status_code == 404


def test_setup_starts_an_analyst_critic_debate_with_a_hand_of_two(owner_client, deck, personas, monkeypatch):
    from debates.models import Debate
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: None)
    form = {"deck": deck.pk, "topic": "Index funds?", "length": "short", "mode": "analyst_critic"}

    page = owner_client.get("/debates/new/").content.decode()
    three = owner_client.post("/debates/new/", {**form, "personas": [p.pk for p in personas[:3]]})
    two = owner_client.post("/debates/new/", {**form, "personas": [p.pk for p in personas[:2]]})

    assert '<input type="radio" name="mode" value="analyst_critic"' in page and "coming soon" not in page
    assert "takes a hand of two" in three.content.decode()
    debate = Debate.objects.get()
    assert (two.status_code, debate.mode) == (302, "analyst_critic")
    assert debate.max_turns == 5 and debate.participants.count() == 2
