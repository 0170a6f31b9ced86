"""The truth corpus's loader (evaluation/corpus/loader.py) on small files written here: a good file
of each mode loads into typed values, in play order; a bad one is refused with its file and the
place of every problem. Pure: no database."""

from pathlib import Path

import pytest

from evaluation.corpus.loader import CorpusError, Meaning, load_corpus, load_scenario

DIALOGUE = """
name = "dialogue_small"
mode = "dialogue"
description = "Two agree in other words."
topic = "Should the library open on Sundays?"
traits = ["rewording"]
max_turns = 4

[[participants]]
name = "Ada Hawk"
worldview = "Reads the visitor counts."
forbidden_phrases = ["At the end of the day"]

[[participants]]
name = "Bram Dove"
worldview = "Runs the branch."

[[questions]]
id = "q1"
text = "Should the library open on Sundays?"
planned = true

[[turns]]
n = 1
speaker = "Ada Hawk"
kind = "opening"
text = "Yes: Sunday is when families can come."
[turns.meaning]
stances = [{ question = "q1", side = "YES" }]
claims = [{ act = "states", id = "a1", gist = "families are free on Sundays" }]

[[turns]]
n = 2
speaker = "Bram Dove"
kind = "opening"
text = "Ada, I'd struggle to argue otherwise. Open it."
[turns.meaning]
stances = [{ question = "q1", side = "YES" }]
reactions = [{ target = "a1", reaction = "accepts" }]
toward = [{ name = "Ada Hawk", relation = "agrees", on = "q1" }]

[[rooms]]
on = "q1"
between = ["Ada Hawk", "Bram Dove"]
[[rooms.turns]]
speaker = "Ada Hawk"
text = "Sundays, yes."
[rooms.turns.meaning]
stances = [{ question = "q1", side = "YES" }]
claims = [{ act = "restates", target = "a1", gist = "Sunday suits families" }]

[expect]
verdict = "consensus"
decided_on = ["q1"]
[expect.final_sides.q1]
"Ada Hawk" = "YES"
"Bram Dove" = "YES"
"""

ANALYST_CRITIC = """
name = "ac_small"
mode = "analyst_critic"
description = "A narrowed point is accepted."
topic = "Should we port checkout to Rust?"

[[participants]]
name = "Ann Lytic"
role = "analyst"
worldview = "Measures first."

[[participants]]
name = "Cris Tick"
role = "critic"
worldview = "Doubts plans."

[[rounds]]
n = 1
[rounds.analyst]
text = "1. It cuts p99 latency by a third. 2. We can hire the engineers."
[rounds.analyst.meaning]
claims = [
  { act = "states", id = "p1", gist = "tail latency down by a third" },
  { act = "states", id = "p2", gist = "we can hire for it" },
]
[rounds.critic]
text = "The latency holds. Hiring does not."
[rounds.critic.meaning]
reactions = [
  { target = "p1", reaction = "accepts" },
  { target = "p2", reaction = "rejects" },
]

[[rounds]]
n = 2
[rounds.analyst]
text = "1. Tail latency falls about 33%. 2. Staffing is feasible with a six-month ramp."
[rounds.analyst.meaning]
claims = [
  { act = "restates", target = "p1", gist = "p99 latency 33% lower" },
  { act = "refines", id = "p3", target = "p2", gist = "staffing works with a six-month ramp" },
]
[rounds.critic]
text = ""
[rounds.critic.meaning]
usable = false

[synthesis]
text = "Port it, with a ramp."

[expect]
verdict = "partial_agreement"
unassessed_rounds = [2]
[expect.points.p1]
status = "agreed"
keywords = ["latency"]
[expect.points.p2]
status = "superseded"
by = "p3"
keywords = ["hire"]
[expect.points.p3]
status = "contested"
keywords = ["staffing"]
"""

COLLABORATE = """
name = "collab_small"
mode = "collaborate"
description = "A split on the rewrite."
topic = "Plan the billing service's next year."

[[participants]]
name = "Arch Plan"
role = "architect"
worldview = "Builds."

[[participants]]
name = "Rev Check"
role = "reviewer"
worldview = "Breaks."

[drafts.architect]
text = "## Plan\\n\\nYes: rewrite it this year."
[drafts.architect.meaning]
claims = [{ act = "states", id = "d1", gist = "rewrite billing this year" }]
[drafts.reviewer]
text = "## Review\\n\\nNo: do not rewrite it."
[drafts.reviewer.meaning]
claims = [{ act = "states", id = "d2", gist = "keep billing as it is" }]
[revisions.architect]
text = "## Plan\\n\\nStill yes: rewrite it."
[revisions.architect.meaning]
claims = [{ act = "restates", target = "d1", gist = "the rewrite happens this year" }]
reactions = [{ target = "d2", reaction = "rejects" }]
[revisions.reviewer]
text = "## Review\\n\\nStill no."
[revisions.reviewer.meaning]
reactions = [{ target = "d1", reaction = "rejects" }]
[artifact]
text = "# Billing\\n\\nRewrite it."

[expect]
verdict = "disagreement"
[expect.decisions]
d1 = "disputed"
d2 = "disputed"
"""


def write(folder: Path, text: str, name: str | None = None) -> Path:
    name = name or text.split('name = "', 1)[1].split('"', 1)[0]
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str) -> str:
    with pytest.raises(CorpusError) as caught:
        load_scenario(write(tmp_path, text))
    return str(caught.value)


def test_a_dialogue_loads_with_its_turns_room_and_meaning_in_play_order(tmp_path):
    scenario = load_scenario(write(tmp_path, DIALOGUE))

    assert scenario.mode == "dialogue" and scenario.names() == ("Ada Hawk", "Bram Dove")
    assert [u.where for u in scenario.utterances()] == ["turn 1", "turn 2", "room q1 turn 1"]
    assert scenario.turns[1].meaning.reactions[0].target == "a1"
    assert scenario.expect.agreement and scenario.expect.final_sides["q1"]["Bram Dove"] == "YES"
    assert scenario.forbidden_for("Ada Hawk")[-1] == "At the end of the day"
    assert "At the end of the day" not in scenario.forbidden_for("Bram Dove")
    assert scenario.turns[0].again is None and scenario.turns[0].slip_name is None


def test_an_analyst_critic_scenario_loads_with_its_rounds_and_a_dropped_critic_turn(tmp_path):
    scenario = load_scenario(write(tmp_path, ANALYST_CRITIC))

    assert [(u.where, u.speaker) for u in scenario.utterances()] == [
        ("round 1 analyst", "Ann Lytic"),
        ("round 1 critic", "Cris Tick"),
        ("round 2 analyst", "Ann Lytic"),
        ("round 2 critic", "Cris Tick"),
        ("synthesis", "synthesis"),
    ]
    assert scenario.rounds[1].critic.meaning == Meaning(usable=False)
    assert scenario.expect.points["p2"].by == "p3" and not scenario.expect.agreement


def test_a_collaboration_loads_with_drafts_revisions_and_artifact(tmp_path):
    scenario = load_scenario(write(tmp_path, COLLABORATE))

    assert [u.where for u in scenario.utterances()] == [
        "draft architect",
        "draft reviewer",
        "revision architect",
        "revision reviewer",
        "artifact",
    ]
    assert scenario.drafts.architect.text.startswith("## Plan\n\n")
    assert scenario.expect.decisions == {"d1": "disputed", "d2": "disputed"}


def test_the_corpus_is_read_sorted_and_held_out_files_are_marked_by_their_folder(tmp_path):
    write(tmp_path, DIALOGUE)
    write(tmp_path, COLLABORATE)
    (tmp_path / "held_out").mkdir()
    write(tmp_path / "held_out", ANALYST_CRITIC)

    visible = load_corpus(tmp_path)
    held_out = load_corpus(tmp_path, held_out=True)

    assert [s.name for s in visible] == ["collab_small", "dialogue_small"]
    assert not any(s.held_out for s in visible)
    assert [(s.name, s.held_out) for s in held_out] == [("ac_small", True)]


@pytest.mark.parametrize(
    ("text", "edit", "problem"),
    [
        (DIALOGUE, ("planned = true", 'planned = true\ncolour = "red"'), "questions[0].colour: Unexpected keyword"),
        (
            DIALOGUE,
            ('side = "YES" }]\nclaims', 'side = "MAYBE" }]\nclaims'),
            "turns[0].meaning.stances[0].side: Input should be",
        ),
        (DIALOGUE, ('kind = "opening"\ntext = "Yes', 'kind = "speech"\ntext = "Yes'), "turns[0].kind: Input should be"),
        (
            DIALOGUE,
            ('question = "q1", side = "YES" }]\nclaims', 'question = "q9", side = "YES" }]\nclaims'),
            "turns[0].meaning.stances[0].question: no question 'q9' (q1)",
        ),
        (
            DIALOGUE,
            (
                '{ question = "q1", side = "YES" }]\nreactions',
                '{ question = "q1", side = "YES", condition = "c1" }]\nreactions',
            ),
            "turns[1].meaning.stances[0].condition: only a NUANCED answer hangs on a condition",
        ),
        (
            DIALOGUE,
            ('reactions = [{ target = "a1"', 'reactions = [{ target = "a7"'),
            "turns[1].meaning.reactions[0].target: 'a7' was not said before",
        ),
        (
            DIALOGUE,
            ('act = "restates", target = "a1"', 'act = "restates", target = "b1"'),
            "rooms[0].turns[0].meaning.claims[0].target: 'b1' is not an earlier claim of Ada Hawk's",
        ),
        (
            DIALOGUE,
            ('name = "Ada Hawk", relation', 'name = "Bram Dove", relation'),
            "turns[1].meaning.toward[0].name: 'Bram Dove' is not another participant",
        ),
        (
            DIALOGUE,
            ('between = ["Ada Hawk", "Bram Dove"]', 'between = ["Bram Dove", "Ada Hawk"]'),
            "rooms[0].turns[0].speaker: a room alternates, the first of `between` first",
        ),
        (DIALOGUE, ('"Bram Dove" = "YES"\n', ""), "expect.final_sides.q1: every participant's side"),
        (
            DIALOGUE,
            ('verdict = "consensus"', 'verdict = "conditional_agreement"'),
            "expect.conditions: a conditional agreement names its condition(s)",
        ),
        (
            DIALOGUE,
            ('kind = "opening"\ntext = "Ada', 'kind = "opening"\nslip_name = "Ada Hawk"\ntext = "Ada'),
            "turns[1].slip_name: a slip is a name nobody in the debate has",
        ),
        (
            DIALOGUE,
            ('name = "dialogue_small"', 'name = "dialogue_small"\nheld_out = true'),
            "held_out: set by the file's folder",
        ),
        (
            ANALYST_CRITIC,
            ('act = "refines", id = "p3", target = "p2"', 'act = "refines", id = "p1", target = "p2"'),
            "rounds[1].analyst.meaning.claims[1].id: 'p1' is already used",
        ),
        (
            ANALYST_CRITIC,
            (
                'staffing works with a six-month ramp" },',
                'staffing works with a six-month ramp" },\n  { act = "restates", target = "p2", gist = "hiring is fine" },',
            ),
            "rounds[1].analyst.meaning.claims[2].target: 'p2' was already refined",
        ),
        (
            ANALYST_CRITIC,
            ('[expect.points.p3]\nstatus = "contested"\nkeywords = ["staffing"]\n', ""),
            "expect.points: the final status of every Analyst point (p1, p2, p3)",
        ),
        (ANALYST_CRITIC, ('by = "p3"\n', ""), "expect.points.p2.by: the point that superseded or negated it"),
        (
            ANALYST_CRITIC,
            ('verdict = "partial_agreement"', 'verdict = "consensus"'),
            "expect.consensus_round: the round consensus is reached in",
        ),
        (
            ANALYST_CRITIC,
            ("[rounds.critic.meaning]\nusable = false", "[rounds.critic.meaning]\nusable = true"),
            "rounds[1].critic.text: empty: mark it meaning.usable = false",
        ),
        (
            ANALYST_CRITIC,
            ('role = "critic"', 'role = "reviewer"'),
            "participants: a analyst_critic scenario has exactly two",
        ),
        (
            COLLABORATE,
            (
                '[drafts.reviewer.meaning]\nclaims = [{ act = "states", id = "d2", gist = "keep billing as it is" }]',
                '[drafts.reviewer.meaning]\nreactions = [{ target = "d1", reaction = "rejects" }]',
            ),
            "drafts.reviewer.meaning.reactions[0].target: 'd1' was not said before where this speaker could hear it",
        ),
        (
            COLLABORATE,
            (
                '[artifact]\ntext = "# Billing\\n\\nRewrite it."',
                '[artifact]\ntext = "# Billing"\nmeaning = { claims = [{ act = "states", id = "d9", gist = "x" }] }',
            ),
            "artifact.meaning: a synthesis or artifact carries only a note",
        ),
        (COLLABORATE, ('d2 = "disputed"\n', ""), "expect.decisions: the outcome of every decision taken (d1, d2)"),
    ],
)
def test_a_bad_file_is_refused_with_the_place_of_the_problem(tmp_path, text, edit, problem):
    old, new = edit
    assert old in text, f"the edit does not apply: {old!r}"
    message = refused(tmp_path, text.replace(old, new, 1))

    assert problem in message
    assert message.startswith(str(tmp_path))


def test_a_file_that_is_not_toml_or_not_named_for_its_scenario_is_refused(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "broken\n', encoding="utf-8")
    with pytest.raises(CorpusError, match="not valid TOML"):
        load_scenario(broken)

    misnamed = write(tmp_path, DIALOGUE, name="another_name")
    with pytest.raises(CorpusError, match="'dialogue_small' is not the file's name \\('another_name'\\)"):
        load_scenario(misnamed)


def test_every_problem_of_a_file_is_reported_at_once(tmp_path):
    text = DIALOGUE.replace('target = "a1", reaction', 'target = "a7", reaction', 1).replace(
        'question = "q1", side = "YES" }]\nclaims', 'question = "q9", side = "YES" }]\nclaims', 1
    )

    message = refused(tmp_path, text)

    assert "2 problems" in message and "'a7'" in message and "'q9'" in message
