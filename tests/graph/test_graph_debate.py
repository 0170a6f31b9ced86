"""A graph-mode debate run end to end: the real orchestrator and the real anthropic SDK against
the scripted fake Messages API."""

import pytest

from crux.graph import DisputeGraph
from crux.models import CruxRoom, DisputeGraphState
from debates.exports import debate_markdown
from debates.models import Debate, Event
from debates.selectors import debate_view
from debates.services.lifecycle import debate_create
from debates.templatetags.debate_ui import regime_label
from devtools.scripted_debate import DebateScript
from gateways.llm.models import ModelCall
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def graph_debate(personas):
    def create(max_turns=30):
        return debate_create(
            owner=None,
            topic="Is hard money the future?",
            personas=personas,
            max_turns=max_turns,
            mode="graph",
        )

    return create


def test_it_builds_the_map_converges_and_computes_results_from_it(scripted_api, graph_debate, personas):
    _, script = scripted_api()
    debate = graph_debate(max_turns=30)
    ada, bram, cleo = (p.name for p in personas)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    events = list(Event.objects.filter(debate=debate).values_list("seq", "kind", "payload"))
    assert [seq for seq, _, _ in events] == list(range(1, len(events) + 1))
    updates = [payload for _, kind, payload in events if kind == "graph_updated"]
    assert [u["round"] for u in updates] == list(range(len(updates)))

    # Round 0: one dispute from the openings; the one-sided "dispute" is rejected, never applied.
    assert [d["question"] for d in updates[0]["graph"]["disputes"]] == [DebateScript.GRAPH_DISPUTE]
    assert updates[0]["rejected"][0]["reason"] == "a dispute needs at least one YES and one NO stance"
    assert updates[0]["moves"] and {m["move"] for m in updates[0]["moves"]} <= {"CLAIM", "CHALLENGE"}
    # Round 1 grows the map (and rejects a reason pinned on a turn its author did not speak) ...
    assert len(updates[1]["graph"]["disputes"]) == 2 and len(updates[1]["graph"]["reasons"]) == 2
    assert any("was spoken by" in r["reason"] for r in updates[1]["rejected"])
    # ... round 2's concession shrinks it: the side dispute dissolves, settled.
    assert updates[2]["removed"] and len(updates[2]["graph"]["disputes"]) == 1
    assert updates[2]["graph"]["settled"][0]["conceded_by"] == bram

    # The map stopped changing before the turn budget ran out, so the dialogue stopped early.
    state = DisputeGraphState.objects.get(debate=debate)
    assert state.converged in ("labelling_stable", "no_new_edges")
    view = debate_view(debate_id=debate.id)
    dialogue_turns = sum(1 for item in view.chat if item.message and item.message.kind in ("key_argument", "reply"))
    assert dialogue_turns < debate.max_turns
    assert updates[-1]["final"] and updates[-1]["turns"][1] == max(m.turn for m in debate.messages.all())

    # Results come from the map: polarized on D1, one dispute settled by concession -> partial.
    results = debate.results
    assert results["regime"] == "partial"
    graph = results["graph"]
    assert graph["common_ground"] == []
    assert [camp["personas"] for camp in graph["camps"]] == [[bram, cleo], [ada]]
    assert graph["crux_assumptions"][0]["assumption"] == "network effects dominate"
    assert graph["concession_trail"][0]["persona"] == bram
    assert graph["convergence"]["reason"] == state.converged
    assert results["fault_lines"][0]["sides"] == {"YES": [ada], "NO": [bram, cleo], "NUANCED": []}
    assert {
        "persona": ada,
        "question": DebateScript.GRAPH_DISPUTE,
        "falsifier": "Drawdowns wipe out savers first.",
    } in results["flip_conditions"]
    assert results["evidence_ledger"] == []
    assert not CruxRoom.objects.filter(debate=debate).exists()

    # Crux cards, dealt the way the dialogue mode deals them: the open dispute, then the settled one.
    assert [(card.question, card.resolved) for card in view.cards] == [
        (DebateScript.GRAPH_DISPUTE, False),
        (DebateScript.GRAPH_SIDE_DISPUTE, True),
    ]
    assert view.graph["round"] == updates[-1]["round"] and view.results == results

    # No model call after the last crystallization but the turns' side work: the results cost nothing.
    calls = ModelCall.objects.filter(debate_id=debate.id)
    last = calls.filter(phase="crystallization").order_by("-id").first()
    side_work = {"ledger", "round_record", "reflection", "in_debate_memory", "recall"}
    assert set(calls.filter(id__gt=last.id).values_list("phase", flat=True)) <= side_work
    assert not calls.filter(phase="evidence_ledger").exists()
    assert DisputeGraph.from_dict(state.graph).to_dict() == updates[-1]["graph"]


def test_a_failed_crystallization_folds_its_turns_into_the_next_window(scripted_api, graph_debate, monkeypatch):
    _, script = scripted_api()
    calls = []
    original = DebateScript._structured_Crystallization

    def flaky(self, body):
        calls.append(1)
        if len(calls) <= 2:  # the call and its one repair: the first window fails
            return {"moves": "not a list"}
        if len(calls) == 3:
            self.calls["Crystallization"] -= 2  # then the script plays from its start
        return original(self, body)

    monkeypatch.setattr(DebateScript, "_structured_Crystallization", flaky)
    debate = graph_debate(max_turns=10)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    updates = list(Event.objects.filter(debate=debate, kind="graph_updated").values_list("payload", flat=True))
    assert len(calls) == 2 + len(updates)
    assert updates[0]["turns"][0] == 1 and updates[0]["turns"][1] > 3  # the openings, read by the next window
    assert updates[0]["graph"]["disputes"]


def test_a_map_no_crystallization_could_build_is_undetermined_not_consensus(scripted_api, graph_debate, monkeypatch):
    scripted_api()
    monkeypatch.setattr(DebateScript, "_structured_Crystallization", lambda self, body: {"moves": "not a list"})
    debate = graph_debate(max_turns=6)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    assert not Event.objects.filter(debate=debate, kind="graph_updated").exists()
    assert debate.results["regime"] == "undetermined"
    assert debate_view(debate_id=debate.id).results["regime"] == "undetermined"
    assert regime_label("undetermined").startswith("Undetermined")
    assert "Where it landed: **Undetermined" in debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))


def test_a_failed_graph_debate_resumes_from_its_persisted_map(scripted_api, graph_debate):
    from devtools.fake_messages_api import Reply

    api, script = scripted_api()
    healthy = api.responder
    api.responder = lambda body, call: (
        Reply.overloaded()
        if not body.get("output_config") and script.calls.get("persona", 0) >= 10
        else healthy(body, call)
    )
    debate = graph_debate(max_turns=30)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    before = list(Event.objects.filter(debate=debate, kind="graph_updated").values_list("payload", flat=True))
    assert before and before[0]["graph"]["disputes"]

    api.responder = healthy
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    updates = list(Event.objects.filter(debate=debate, kind="graph_updated").values_list("payload", flat=True))
    assert [u["round"] for u in updates] == list(range(len(updates))) and len(updates) > len(before)
    # Each window starts where the last one ended: no turn read twice, none skipped.
    assert all(
        later["turns"][0] == earlier["turns"][1] + 1 for earlier, later in zip(updates, updates[1:], strict=False)
    )
    assert updates[0]["turns"][0] == 1
    assert debate.results["graph"]["concession_trail"]


def test_rundebate_runs_the_graph_mode_and_prints_what_the_map_computed(scripted_api, personas, capsys):
    from django.core.management import call_command

    from debates.exports import debate_markdown

    scripted_api()
    call_command(
        "rundebate",
        "--personas",
        ",".join(p.name for p in personas),
        "--topic",
        "Is hard money the future?",
        "--mode",
        "graph",
        "--max-turns",
        "30",
    )

    out = capsys.readouterr().out
    debate = Debate.objects.get()
    assert (debate.mode, debate.status) == ("graph", Debate.Status.COMPLETED)
    assert "Argument map:" in out and "CAMP 1" in out and "CONCESSION (round" in out
    assert not CruxRoom.objects.filter(debate=debate).exists()
    markdown = debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    for heading in ("### Camps", "### Crux assumptions", "### Concession trail"):
        assert heading in markdown
