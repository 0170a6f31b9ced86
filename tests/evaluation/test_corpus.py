"""The truth corpus itself (evaluation/corpus/truth/): every file loads, and each scenario keeps the
corpus's rules (evaluation/corpus/README.md): turns that fit the app's limits, a forbidden-phrase
list that is what the speech holds, keywords that find every wording of a point, and an expected
outcome that agrees with the meaning written beside the speech. Pure: no database.

The held-out scenarios are loaded and checked too; a failure names the scenario and the rule, and
prints nothing of its speech."""

import re

import pytest

from evaluation.corpus.loader import (
    ANALYST_CRITIC,
    COLLABORATE,
    DIALOGUE,
    GRAPH,
    MODES,
    STORIES,
    TRAITS,
    Scenario,
    load_corpus,
)

VISIBLE = load_corpus()
HELD_OUT = load_corpus(held_out=True)
EVERY = VISIBLE + HELD_OUT


def each(scenarios, *modes):
    chosen = [s for s in scenarios if not modes or s.mode in modes]
    return pytest.mark.parametrize("scenario", chosen, ids=[s.name for s in chosen])


# ── the corpus as a whole ─────────────────────────────────────────────────────────────────────


def test_each_mode_has_at_least_ten_visible_scenarios_that_fail_both_ways():
    for mode in MODES:
        scenarios = [s for s in VISIBLE if s.mode == mode]
        assert len(scenarios) >= 10, mode
        # Consensus that must not be missed, and consensus that must not be faked.
        assert {s.expect.agreement for s in scenarios} == {True, False}, mode


def test_at_least_ten_are_held_out_spread_over_every_mode():
    assert len(HELD_OUT) >= 10
    assert all(s.held_out for s in HELD_OUT) and not any(s.held_out for s in VISIBLE)
    for mode in MODES:
        assert len([s for s in HELD_OUT if s.mode == mode]) >= 2, mode


def test_every_story_of_the_issue_and_every_trait_is_in_the_visible_scenarios():
    assert set(STORIES) <= {story for s in VISIBLE for story in s.stories}
    assert set(TRAITS) <= {trait for s in VISIBLE for trait in s.traits}


def test_no_two_scenarios_share_a_name_or_a_topic():
    assert len({s.name for s in EVERY}) == len(EVERY)
    assert len({s.topic for s in EVERY}) == len(EVERY)


# ── what the app's limits and the voice guard see ─────────────────────────────────────────────

# As orchestration/voice.py counts them: a sentence ends at . ! ? or … (closing quotes or brackets
# after it) followed by white space, or at a line break.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"'”’)\]]*[ \t]*\n\s*|(?<=[.!?…])[\"'”’)\]]*\s+|[ \t]*\n\s*")
LIMITS = {"opening": 5, "turn": 3, "closing": 4}
ROOM_LIMIT, ANALYST_LIMIT, CRITIC_LIMIT, LONG_FORM_LIMIT, ARTIFACT_LIMIT = 3, 14, 12, 60, 200
ASSESSMENT = "## Agreement Assessment"


def sentences(text: str) -> int:
    return len([part for part in _SENTENCE_BREAK.split(text) if part.strip()])


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'").replace("‘", "'")).lower()


def holds(text: str, phrase: str) -> bool:
    """As the voice guard finds a phrase: case and curly quotes folded, whole words."""
    return re.search(r"(?<!\w)" + re.escape(fold(phrase).strip()) + r"(?!\w)", fold(text)) is not None


@each(EVERY, DIALOGUE, GRAPH)
def test_a_discussion_has_6_to_14_turns_and_each_participant_opens_and_closes_once(scenario):
    assert 6 <= len(scenario.turns) <= 14
    for name in scenario.names():
        kinds = [turn.kind for turn in scenario.turns if turn.speaker == name]
        assert kinds.count("opening") == 1 and kinds.count("closing") == 1, name
        assert kinds[0] == "opening" and kinds[-1] == "closing", name


@each(EVERY, DIALOGUE, GRAPH)
def test_a_discussions_turn_budget_is_its_middle_turns(scenario):
    # Openings and closings do not count against Debate.max_turns (debates/turns.py).
    assert scenario.max_turns == len([turn for turn in scenario.turns if turn.kind == "turn"])


@each(EVERY, DIALOGUE, GRAPH)
def test_every_discussion_turn_fits_its_kind(scenario):
    for turn in scenario.turns:
        for text in filter(None, (turn.text, turn.again)):
            assert sentences(text) <= LIMITS[turn.kind], f"turn {turn.n}: {sentences(text)} sentences"
    for room in scenario.rooms:
        for number, turn in enumerate(room.turns, 1):
            assert sentences(turn.text) <= ROOM_LIMIT, f"room {room.on} turn {number}"


@each(EVERY, ANALYST_CRITIC)
def test_an_analyst_critic_scenario_has_3_to_5_rounds_that_fit_the_roles(scenario):
    assert 3 <= len(scenario.rounds) <= 5
    for rnd in scenario.rounds:
        assert sentences(rnd.analyst.text) <= ANALYST_LIMIT, f"round {rnd.n} analyst"
        critic = rnd.critic
        if critic.meaning.usable:
            evaluation, _, assessment = critic.text.partition(ASSESSMENT)
            assert assessment, f"round {rnd.n}: a usable Critic turn ends with its Agreement Assessment"
            assert "Overall agreement level:" in assessment, f"round {rnd.n}"
            assert sentences(evaluation) <= CRITIC_LIMIT, f"round {rnd.n} critic"
        else:
            assert ASSESSMENT not in critic.text, f"round {rnd.n}: a dropped turn has no assessment"


@each(EVERY, COLLABORATE)
def test_a_collaborations_long_form_fits_the_caps_of_its_kinds(scenario):
    for phase in ("drafts", "revisions"):
        for role in ("architect", "reviewer"):
            said = getattr(getattr(scenario, phase), role)
            assert sentences(said.text) <= LONG_FORM_LIMIT, f"{phase} {role}: {sentences(said.text)} sentences"
    assert sentences(scenario.artifact.text) <= ARTIFACT_LIMIT


@each(EVERY)
def test_the_forbidden_phrases_expected_are_exactly_those_the_speech_holds(scenario):
    found = set()
    for utterance in scenario.utterances():
        phrases = scenario.forbidden_for(utterance.speaker)
        found |= {phrase for phrase in phrases if holds(utterance.said.text, phrase)}
        if utterance.said.again is not None:
            said_again = [phrase for phrase in phrases if holds(utterance.said.again, phrase)]
            assert not said_again, f"{utterance.where}: asked again, it still says {said_again}"
    assert found == set(scenario.expect.forbidden_in_speech)


@each(EVERY)
def test_the_question_decided_on_is_the_one_a_planner_proposes(scenario):
    planned = {q.id for q in scenario.questions if q.planned}
    assert planned == set(scenario.expect.decided_on)


# ── the expected outcome agrees with the meaning ──────────────────────────────────────────────


def final_sides(scenario: Scenario, question: str) -> dict[str, tuple[str, str | None]]:
    """Each participant's last main-channel stance on ``question``: (side, condition)."""
    sides = {}
    for turn in scenario.turns:
        for stance in turn.meaning.stances:
            if stance.question == question:
                sides[turn.speaker] = (stance.side, stance.condition)
    return sides


def discussion_verdict(scenario: Scenario) -> tuple[str, set[str]]:
    verdicts, conditions = [], set()
    for question in scenario.expect.decided_on:
        sides = final_sides(scenario, question)
        answers = {side for side, _ in sides.values()}
        given = {condition for _, condition in sides.values() if condition}
        conditions |= given
        if {"YES", "NO"} <= answers:
            verdicts.append("disagreement")
        elif len(sides) < len(scenario.participants):
            verdicts.append("undetermined")
        elif answers == {"NUANCED"} and len(given) == 1 and all(c for _, c in sides.values()):
            verdicts.append("conditional_agreement")
        elif len(answers) == 1 and answers != {"NUANCED"}:
            verdicts.append("consensus")
        else:
            verdicts.append("partial_agreement")
    if not verdicts:
        return "not_yes_no", conditions
    if len(set(verdicts)) == 1:
        return verdicts[0], conditions
    return ("undetermined" if "undetermined" in verdicts else "partial_agreement"), conditions


@each(EVERY, DIALOGUE, GRAPH)
def test_a_discussions_expected_sides_and_verdict_are_what_its_turns_mean(scenario):
    expect = scenario.expect
    for question, sides in expect.final_sides.items():
        said = final_sides(scenario, question)
        assert {name: said.get(name, ("none", None))[0] for name in sides} == sides
    verdict, conditions = discussion_verdict(scenario)
    assert verdict == expect.verdict
    if verdict in ("conditional_agreement", "partial_agreement"):
        assert set(expect.conditions) == conditions


@each(EVERY, DIALOGUE, GRAPH)
def test_a_proposal_is_accepted_only_when_everyone_else_accepts_it(scenario):
    made, reactions = {}, {}
    for utterance in scenario.utterances():
        meaning = utterance.said.meaning
        if meaning.proposal:
            made[meaning.proposal.id] = utterance.speaker
        for reaction in meaning.reactions:
            if reaction.target in made:
                reactions.setdefault(reaction.target, {})[utterance.speaker] = reaction.reaction
    for label, proposer in made.items():
        others = {name: reactions.get(label, {}).get(name) for name in scenario.names() if name != proposer}
        if all(r == "accepts" for r in others.values()):
            outcome = "accepted"
        elif "rejects" in others.values():
            outcome = "rejected"
        else:
            outcome = "open"
        assert scenario.expect.proposals[label] == outcome, label


def ledger_by_round(scenario: Scenario) -> tuple[list[dict[str, str]], dict[str, str]]:
    """The Analyst's points folded round by round from the meaning: [{label: status}] after each
    round, and {label: replacing label}."""
    status: dict[str, str] = {}
    by: dict[str, str] = {}
    after = []
    for rnd in scenario.rounds:
        assessed = rnd.critic.meaning.usable
        fresh = set()
        for claim in rnd.analyst.meaning.claims:
            if claim.act in ("refines", "negates", "withdraws", "states"):
                assert assessed, f"round {rnd.n}: a dropped round's Analyst only restates (nothing would record it)"
            if claim.act in ("refines", "negates"):
                status[claim.target] = "superseded" if claim.act == "refines" else "negated"
                by[claim.target] = claim.id
            if claim.act == "withdraws":
                status[claim.target] = "withdrawn"
            if claim.id:
                status[claim.id] = "new"
                fresh.add(claim.id)
        if assessed:
            reacted = {reaction.target for reaction in rnd.critic.meaning.reactions}
            assert fresh <= reacted, f"round {rnd.n}: the Critic leaves {sorted(fresh - reacted)} unassessed"
            for reaction in rnd.critic.meaning.reactions:
                assert status.get(reaction.target) not in ("superseded", "negated", "withdrawn"), (
                    f"round {rnd.n}: the Critic assesses {reaction.target}, which the Analyst no longer holds"
                )
                status[reaction.target] = {"accepts": "agreed", "rejects": "contested"}.get(
                    reaction.reaction, reaction.reaction
                )
        after.append(dict(status))
    return after, by


@each(EVERY, ANALYST_CRITIC)
def test_an_analyst_critic_outcome_is_what_its_rounds_mean(scenario):
    expect = scenario.expect
    after, by = ledger_by_round(scenario)
    final = after[-1]
    assert {label: outcome.status for label, outcome in expect.points.items()} == final
    assert {label: outcome.by for label, outcome in expect.points.items() if outcome.by} == by
    unassessed = [rnd.n for rnd in scenario.rounds if not rnd.critic.meaning.usable]
    assert list(expect.unassessed_rounds) == unassessed

    def settled(ledger: dict[str, str]) -> bool:
        held = [status for status in ledger.values() if status not in ("superseded", "negated", "withdrawn")]
        return bool(held) and all(status == "agreed" for status in held)

    reached = next(
        (
            rnd.n
            for rnd, ledger in zip(scenario.rounds, after, strict=True)
            if rnd.n not in unassessed and settled(ledger)
        ),
        None,
    )
    assert expect.consensus_round == reached
    held = {s for s in final.values() if s not in ("superseded", "negated", "withdrawn")}
    if reached:
        verdict = "consensus"
    elif "agreed" in held:
        verdict = "partial_agreement"
    elif held:
        verdict = "disagreement"
    else:
        verdict = "undetermined"
    assert expect.verdict == verdict


@each(EVERY, ANALYST_CRITIC)
def test_every_wording_of_a_point_holds_its_keywords_and_no_other_points(scenario):
    gists: dict[str, list[str]] = {}
    opposite = set()
    for rnd in scenario.rounds:
        for claim in rnd.analyst.meaning.claims:
            gists.setdefault(claim.id or claim.target, []).append(claim.gist)
            if claim.act == "negates":
                opposite |= {(claim.id, claim.target), (claim.target, claim.id)}
        for reaction in rnd.critic.meaning.reactions:
            if reaction.gist:
                gists.setdefault(reaction.target, []).append(reaction.gist)
    points = scenario.expect.points
    for label, wordings in gists.items():
        for gist in wordings:
            missing = [k for k in points[label].keywords if k.lower() not in gist.lower()]
            assert not missing, f"{label}: {missing} not in {gist!r}"
            for other, outcome in points.items():
                if other == label or (label, other) in opposite:
                    continue
                assert not all(k.lower() in gist.lower() for k in outcome.keywords), (
                    f"{label}'s wording {gist!r} also fits {other}'s keywords"
                )


@each(EVERY, COLLABORATE)
def test_a_collaborations_decisions_are_what_the_revisions_say_of_them(scenario):
    owner = {
        claim.id: role for role in ("architect", "reviewer") for claim in getattr(scenario.drafts, role).meaning.claims
    }
    outcome = {}
    for label, role in owner.items():
        own = getattr(scenario.revisions, role).meaning
        other = getattr(scenario.revisions, "reviewer" if role == "architect" else "architect").meaning
        if any(c.act == "withdraws" and c.target == label for c in own.claims):
            outcome[label] = "dropped"
            continue
        reaction = next((r.reaction for r in other.reactions if r.target == label), None)
        if not other.usable:
            reaction = None
        outcome[label] = {"accepts": "agreed", "rejects": "disputed"}.get(reaction, "undecided")
    assert dict(scenario.expect.decisions) == outcome
    kept = [status for status in outcome.values() if status != "dropped"]
    if not (scenario.revisions.architect.meaning.usable and scenario.revisions.reviewer.meaning.usable):
        verdict = "undetermined"
    elif all(status == "agreed" for status in kept):
        verdict = "consensus"
    elif "agreed" in kept:
        verdict = "partial_agreement"
    elif "disputed" in kept:
        verdict = "disagreement"
    else:
        verdict = "undetermined"
    assert scenario.expect.verdict == verdict
