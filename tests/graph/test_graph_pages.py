"""Graph mode on the pages: setup starts it, and the live page, the replay, the websocket
fragments and the results draw the argument map, with every model-written word kept inert."""

import pytest

from crux.graph import crystallization
from crux.graph.schemas import Crystallization
from debates import fragments
from debates.models import Debate, Event
from debates.selectors import debate_view
from debates.services.lifecycle import debate_create
from orchestration.loop import DebateRun
from orchestration.modes.graph.mode import GraphMode
from tests.debates.log_builder import HOSTILE, DebateLog

pytestmark = pytest.mark.django_db

LIVE_MARKUP = ["<script>alert(1)", "<img src=x", 'onerror="alert(2)"']
INERT = "&lt;script&gt;alert(1)&lt;/script&gt;"


def assert_inert(html: str) -> None:
    for marker in LIVE_MARKUP:
        assert marker not in html, f"live markup {marker!r} in output"


def test_setup_starts_a_graph_debate(owner_client, deck, personas, monkeypatch):
    from debates.services import lifecycle

    queued = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))

    page = owner_client.get("/debates/new/").content.decode()
    response = owner_client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [p.pk for p in personas[:2]],
            "topic": "Is Bitcoin inevitable?",
            "length": "short",
            "mode": "graph",
        },
    )

    assert '<input type="radio" name="mode" value="graph"' in page and "coming soon" not in page
    debate = Debate.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/debates/{debate.id}/"
    assert (debate.mode, queued) == ("graph", [str(debate.id)])


def test_a_graph_debate_no_worker_has_started_yet_already_shows_the_map_and_no_room_drawer(
    owner_client, user, personas
):
    debate = debate_create(owner=user, topic="Is hard money the future?", personas=personas, mode="graph")
    assert not Event.objects.filter(debate=debate).exists()  # nothing folded says "graph" yet

    live = owner_client.get(f"/debates/{debate.id}/").content.decode()
    replay = owner_client.get(f"/debates/{debate.id}/replay/?step=0").content.decode()
    snapshot = fragments.snapshot(debate_view(debate_id=debate.id))

    for html in (live, replay):
        assert 'id="graph-panel"' in html and 'id="drawer"' not in html
    assert 'id="graph-panel"' in snapshot and 'id="drawer-tabs"' not in snapshot


@pytest.fixture
def mapped(user, personas, monkeypatch):
    """A graph debate whose map was crystallized (through the real service) from hostile text."""
    ada, bram, _ = personas
    debate = debate_create(owner=user, topic="Is hard money the future?", personas=personas, mode="graph")
    log = DebateLog(debate).start()
    log.say(ada, f"Hard money wins {HOSTILE}", kind="opening")
    log.say(bram, "Liquidity wins.", kind="opening")
    draft = Crystallization.model_validate(
        {
            "moves": [{"turn": 1, "move": "CLAIM"}, {"turn": 2, "move": "CHALLENGE"}],
            "new_disputes": [
                {
                    "question": f"Will hard money win? {HOSTILE}",
                    "disagreement_type": "values",
                    "stances": [
                        {
                            "persona": ada.name,
                            "side": "YES",
                            "claim": f"Claim {HOSTILE}",
                            "turn": 1,
                            "assumptions": [
                                {"assumption": f"Assumption {HOSTILE}", "settling_question": f"Settle {HOSTILE}"}
                            ],
                        },
                        {
                            "persona": bram.name,
                            "side": "NO",
                            "claim": "Liquidity decides.",
                            "turn": 2,
                            "assumptions": [],
                        },
                    ],
                }
            ],
            "new_reasons": [
                {
                    "stance_id": "S1",
                    "persona": bram.name,
                    "relation": "attacks",
                    "text": f"Reason {HOSTILE}",
                    "turn": 2,
                    "assumptions": [],
                }
            ],
        }
    )
    draft.new_disputes.append(
        Crystallization.model_validate(
            {
                "new_disputes": [
                    {
                        "question": f"One-sided {HOSTILE}",
                        "disagreement_type": "claim",
                        "stances": [
                            {"persona": ada.name, "side": "YES", "claim": "Alone.", "turn": 1, "assumptions": []}
                        ],
                    }
                ]
            }
        ).new_disputes[0]
    )
    monkeypatch.setattr(crystallization.gateway, "extract", lambda **kwargs: draft)
    crystallization.graph_crystallize(debate=debate, through_turn=2, max_rounds=10)
    return debate


def test_the_live_page_draws_the_map_with_model_text_inert(owner_client, mapped):
    content = owner_client.get(f"/debates/{mapped.id}/").content.decode()

    assert 'id="graph-panel"' in content and 'class="graph-svg"' in content
    assert 'id="gnode-D1"' in content and 'id="gnode-S1"' in content and 'id="gnode-R1"' in content
    # S1 and S2 attack each other, and R1 attacks S1 while S1 contests it: all undecided.
    assert 'class="gcount-undec-value">3<' in content and 'class="gcount-in-value">0<' in content
    assert 'class="gnode gnode-stance gnode-undec gnode-side-yes" id="gnode-S1" data-label="UNDEC"' in content
    assert_inert(content)
    assert "Reason &lt;script&gt;" in content and "One-sided" in content  # the rejected proposal, escaped


def test_replay_and_websocket_fragments_draw_the_same_panel(owner_client, mapped):
    update = Event.objects.get(debate=mapped, kind="graph_updated")

    replay = owner_client.get(f"/debates/{mapped.id}/replay/?step={update.seq}").content.decode()
    before = owner_client.get(f"/debates/{mapped.id}/replay/?step={update.seq - 1}").content.decode()
    view = debate_view(debate_id=mapped.id)
    pushed = fragments.for_event(view, update.kind, update.payload)
    snapshot = fragments.snapshot(view)

    assert (
        'id="gnode-S1"' in replay
        and 'id="gnode-S1"' not in before
        and "The map appears after the opening statements" in before
    )
    assert '<section id="graph-panel"' in pushed and 'hx-swap-oob="true"' in pushed and 'id="gnode-S1"' in pushed
    assert 'id="graph-panel"' in snapshot
    for html in (replay, pushed, snapshot):
        assert_inert(html)
        assert INERT in html


def test_results_come_from_the_map_and_render_in_the_results_view(owner_client, mapped):
    DebateRun(mapped, GraphMode).finish(Debate.Status.COMPLETED)

    mapped.refresh_from_db()
    results = mapped.results
    content = owner_client.get(f"/debates/{mapped.id}/results/").content.decode()

    assert results["graph"]["crux_assumptions"][0]["assumption"].startswith("Assumption")
    assert "Common ground" in content and "Crux assumptions" in content and "Camps" in content
    assert 'id="card-graph-D1"' in content  # the open dispute, dealt as a crux card
    assert_inert(content)
    assert f"Assumption {INERT}" in content and f"Settle {INERT}" in content


def test_a_finished_graph_debate_exports(owner_client, mapped):
    DebateRun(mapped, GraphMode).finish(Debate.Status.COMPLETED)

    markdown = owner_client.get(f"/debates/{mapped.id}/export.md")
    exported = owner_client.get(f"/debates/{mapped.id}/export.json")

    assert markdown.status_code == 200 and "Will hard money win?" in markdown.content.decode()
    assert exported.status_code == 200 and exported.json()
