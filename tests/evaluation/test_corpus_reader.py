"""The truth corpus's scripted reader (orchestration/evaluation/corpus_reader.py) answers from a
scenario's meaning, matched to what a prompt shows by its data lines only: in its own words, by
the ids the app gave, careless where the scenario says. Plain: no database, no app run."""

from __future__ import annotations

import dataclasses

from devtools.fake_messages_api import Call
from devtools.prompt_reading import Reading
from evaluation.corpus.loader import TRUTH, load_scenario
from gateways.llm.prompt_lines import item_line, said_line
from orchestration.evaluation.corpus_script import CorpusScript
from orchestration.modes.analyst_critic.consensus import assessment_section, quote_problem
from orchestration.schemas import AgreementAssessment

LATENCY = load_scenario(TRUTH / "ac_latency_restated_hiring_narrowed.toml")
STADIUM = load_scenario(TRUTH / "dialogue_stadium_ghost_names.toml")
BY_REFERENCE = {"title": "AgreementAssessment", "properties": {"points": {}, "new_points": {}, "overall": {}}}
LISTS = {"title": "AgreementAssessment", "properties": {"agreed": {}, "disagreed": {}, "overall": {}}}


def request(text: str, call: Call, schema: dict | None = None) -> Reading:
    body = {"messages": [{"role": "user", "content": text}]}
    if schema is not None:
        body["output_config"] = {"format": {"type": "json_schema", "schema": schema}}
    return Reading(body, call)


def play_round(script: CorpusScript, number: int) -> tuple[str, str]:
    """Round ``number`` said by the scripted Analyst and Critic, as the app asks for them."""
    said = []
    for role, turn in (("analyst", 2 * number - 1), ("critic", 2 * number)):
        said.append(script.say(request("", Call(role=role, phase=f"analyst_critic_{role}", round=number, turn=turn))))
    return said[0], said[1]


def assessment_call(script: CorpusScript, number: int, open_points: dict[str, str], schema=BY_REFERENCE) -> dict:
    answer, evaluation = play_round(script, number)
    lines = [item_line(key, f"(agreed) {text}") for key, text in open_points.items()]
    lines += [
        said_line(2 * number - 1, "Analyst", answer),
        said_line(2 * number, "Critic", assessment_section(evaluation)),
    ]
    call = Call(
        role="critic", phase="assessment", round=number, turns=(2 * number - 1, 2 * number), items=tuple(open_points)
    )
    return script.reader.answer(request("\n".join(lines), call, schema))


def test_round_one_is_three_new_points_in_the_readers_own_words():
    script = CorpusScript(LATENCY)

    answer = assessment_call(script, 1, {})

    assert answer["points"] == []
    assert [(p["text"], p["status"]) for p in answer["new_points"]] == [
        ("a Rust checkout has about one third lower p99 latency on the peak replay", "accepted"),
        ("the company can hire the Rust engineers the port needs", "contested"),
        ("the port proceeds endpoint by endpoint behind the gateway, each step reversible", "accepted"),
    ]
    AgreementAssessment.model_validate(answer)


def test_round_two_names_each_open_point_by_its_id_quotes_the_narrowing_and_cites_an_id_nobody_gave():
    script = CorpusScript(LATENCY)
    first = assessment_call(script, 1, {})
    shown = {f"P{n}": point["text"] for n, point in enumerate(first["new_points"], 1)}

    answer = assessment_call(script, 2, shown)

    by_id = {p["id"]: p for p in answer["points"]}
    assert by_id["P1"]["status"] == "accepted" and by_id["P3"]["status"] == "accepted"
    narrowed = by_id["P2"]
    assert (narrowed["status"], narrowed["verdict"]) == ("refined", "accepted")
    assert narrowed["new_wording"].startswith("staffing works over a six-month ramp")
    analyst = LATENCY.rounds[1].analyst.text
    assert narrowed["quote"].startswith("Staffing is feasible with a six-month ramp")
    assert quote_problem(narrowed["quote"], analyst, [LATENCY.rounds[0].analyst.text]) == ""
    assert by_id["P10"]["status"] == "accepted"  # the slip: an id the app never gave (slip_id)
    assert answer["new_points"] == []


def test_a_code_without_point_ids_gets_the_three_lists_in_the_readers_latest_words():
    script = CorpusScript(LATENCY)
    assessment_call(script, 1, {}, schema=LISTS)

    answer = assessment_call(script, 2, {}, schema=LISTS)

    assert [p["point"] for p in answer["agreed"]] == [
        "checkout's p99 latency falls about 33% in Rust",
        "staffing works over a six-month ramp: two trained in-house plus one senior recruit",
        "moving one endpoint at a time behind the gateway, reversible",
    ]
    assert answer["disagreed"] == [] and answer["overall"] == "strong"


def test_a_careless_reader_names_a_speaker_by_its_slip_in_the_evidence_ledger_and_the_ledger_update():
    script = CorpusScript(STADIUM)
    for turn in STADIUM.turns[:6]:
        script.stage.say(
            next(u for u in script.stage.utterances if u.where == f"turn {turn.n}"), channel="main", turn=turn.n
        )
    transcript = "\n".join(said_line(t.n, t.speaker, t.text.strip()) for t in STADIUM.turns[:6])

    ledger = script.reader.answer(request(transcript, Call(phase="evidence_ledger"), {"title": "EvidenceLedger"}))
    digest = script.reader.answer(request(transcript, Call(phase="ledger", turns=(5,)), {"title": "LedgerDigest"}))

    who = {entry["persona"] for entry in ledger["entries"]}
    assert "Shoul d" in who and "Development Economist" in who
    assert digest["updates"][0]["speaker"] == "Shoul d" and digest["updates"][0]["turn"] == 5


def test_a_second_draft_says_the_same_answer_in_other_words():
    phrases = load_scenario(TRUTH / "ac_house_phrases_in_both_roles.toml")
    script = CorpusScript(phrases)
    call = Call(role="analyst", phase="analyst_critic_analysis", round=1, turn=1)
    first = script.say(request("", call))

    again = script.say(request("", dataclasses.replace(call, attempt=2)))

    assert first.strip().startswith("Great question.")
    assert "Great question" not in again and again.strip().startswith("Yes, get certified")


def test_a_reaction_cites_the_proposal_by_the_turn_that_made_it_or_by_the_id_its_line_shows():
    oncall = load_scenario(TRUTH / "dialogue_oncall_proposal_in_other_words.toml")
    script = CorpusScript(oncall)
    for turn in oncall.turns[:6]:
        script.stage.say(
            next(u for u in script.stage.utterances if u.where == f"turn {turn.n}"), channel="main", turn=turn.n
        )
    transcript = "\n".join(said_line(t.n, t.speaker, t.text.strip()) for t in oncall.turns[:6])

    # The proposal (turn 4) and the reactions to it (turns 5, 6) in one digest: no line shows it yet.
    together = script.reader.answer(
        request(transcript, Call(phase="ledger", turns=(4, 5, 6)), {"title": "LedgerDigest"})
    )
    # Turn 6 alone, once the app holds it as X1.
    rota = item_line("X1", "Elif Yilmaz: A weekly rotation across all eight engineers, with a standby allowance.")
    later = script.reader.answer(
        request(rota + "\n" + transcript, Call(phase="ledger", turns=(6,), items=("X1",)), {"title": "LedgerDigest"})
    )

    cited = {u["turn"]: u.get("proposal_reaction", {}).get("proposal") for u in together["updates"]}
    assert cited == {4: None, 5: "turn 4", 6: "turn 4"}
    assert later["updates"][0]["proposal_reaction"]["proposal"] == "X1"
    assert "proposed_by" not in later["updates"][0]["proposal_reaction"]
