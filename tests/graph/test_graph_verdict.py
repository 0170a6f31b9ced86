"""Graph mode's verdict, run end to end (the real orchestrator, the real anthropic SDK, the scripted
fake Messages API): a map nobody disputed anything on is no consensus while a final answer is
missing, and every place that names the verdict uses its label."""

import json

import pytest
from django.core.management import call_command

from crux.models import DisputeGraphState
from debates.exports import debate_json, debate_markdown
from debates.models import Debate, Event
from debates.selectors import debate_view
from devtools.scripted_debate import DebateScript

pytestmark = pytest.mark.django_db(transaction=True)

MAP_LISTS = ("new_disputes", "new_stances", "new_reasons", "concessions", "reframes", "crux_proposals")


@pytest.fixture
def quiet_map_and_a_silent_persona(monkeypatch):
    """The crystallizer reads every window but maps no dispute; the ledger records YES for every
    persona but the last, whose answer to the question is never recorded."""
    crystallization, position_update = DebateScript._structured_Crystallization, DebateScript.position_update

    def quiet_map(self, reading):
        return {**crystallization(self, reading), **{key: [] for key in MAP_LISTS}}

    def silent_last_persona(self, reading, said, before):
        update = position_update(self, reading, said, before)
        update.pop("topic_side", None)
        if said.name != reading.participants[-1]:
            update["topic_side"] = "YES"
        return update

    monkeypatch.setattr(DebateScript, "_structured_Crystallization", quiet_map)
    monkeypatch.setattr(DebateScript, "position_update", silent_last_persona)


def test_an_empty_map_with_a_final_answer_missing_is_undetermined_everywhere(
    scripted_api, personas, quiet_map_and_a_silent_persona, capsys
):
    scripted_api()
    ada, bram, cleo = (p.name for p in personas)

    call_command(
        "rundebate",
        "--personas",
        f"{ada},{bram},{cleo}",
        "--topic",
        "Is hard money the future?",
        "--mode",
        "graph",
        "--max-turns",
        "10",
    )

    debate = Debate.objects.get()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    state = DisputeGraphState.objects.get(debate=debate)
    assert state.rounds and not state.graph["disputes"]  # the map was built, and nothing is on it
    assert debate.results["final_sides"] == {ada: "YES", bram: "YES", cleo: ""}
    assert debate.results["regime"] == "undetermined"
    assert f"{cleo} (not recorded)" in debate.results["regime_basis"]
    # The live map's own reading: nothing on it is no consensus either.
    last_map = Event.objects.filter(debate=debate, kind="graph_updated").order_by("-seq").first()
    assert last_map.payload["regime"] == "undetermined"

    out = capsys.readouterr().out
    assert "Where it landed: Undetermined: too little was recorded to judge." in out and "Regime:" not in out
    view = debate_view(debate_id=debate.id)
    markdown = debate_markdown(debate=debate, view=view)
    assert "Where it landed: **Undetermined: too little was recorded to judge.**" in markdown
    events = list(Event.objects.filter(debate=debate).order_by("seq").values_list("seq", "kind", "payload"))
    summary = json.loads(debate_json(debate=debate, events=events))["summary"]
    assert summary["results"]["regime_label"] == "Undetermined"
    assert summary["verdict_sentence"] == "Undetermined: too little was recorded to judge."
