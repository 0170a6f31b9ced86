"""The one verdict sentence (debates/regime.py): the verdict by its label and what it means, the
score where the mode keeps one, and how the debate ended, reconciled in one place."""

import pytest

from debates.regime import REGIME_LABELS, verdict_sentence


@pytest.mark.parametrize("regime", list(REGIME_LABELS))
def test_a_finished_debate_s_sentence_starts_with_its_verdict_s_label(regime):
    sentence = verdict_sentence(results={"regime": regime}, status="completed")
    assert sentence.startswith(REGIME_LABELS[regime]) and sentence.endswith(".")
    assert "_" not in sentence


def test_the_analyst_critic_score_and_rounds_are_part_of_it_and_agree_with_how_the_rounds_ended():
    consensus = {"regime": "consensus", "status": "consensus", "score": 100.0, "rounds": 2}
    assert verdict_sentence(results=consensus, status="completed") == (
        "Consensus (100% of the points agreed after 2 rounds): every final answer agrees and nothing is left open."
    )
    out_of_rounds = {"regime": "partial", "status": "max_rounds", "score": 50.0, "rounds": 3}
    assert verdict_sentence(results=out_of_rounds, status="completed").startswith(
        "No consensus within the rounds allowed. Partial agreement (50% of the points agreed after 3 rounds)"
    )


def test_a_stopped_debate_says_so_and_what_was_said_until_then():
    assert verdict_sentence(results={"regime": "polarized"}, status="stopped") == (
        "Stopped before the end; on what was said, polarized: they split on an open question, with nothing "
        "settled beside it."
    )
    assert verdict_sentence(results={}, status="stopped") == "This debate was stopped before anything could be judged."


def test_nothing_is_said_before_the_end_and_a_failure_is_not_a_verdict():
    for status in ("pending", "running", "paused"):
        assert verdict_sentence(results={"regime": "consensus"}, status=status) == ""
    assert verdict_sentence(results=None, status="failed") == "This debate failed before it reached a verdict."


# ── open questions, conditions, and words that never contradict one another ──────────────────


def test_a_conditional_agreement_names_the_condition_they_share():
    results = {"regime": "conditional", "conditions": ["the fee revenue is spent on buses"]}

    assert verdict_sentence(results=results, status="completed") == (
        "Conditional agreement: every final answer hangs on the same condition: the fee revenue is spent on buses."
    )


def test_all_nuanced_on_different_conditions_is_partial_and_lists_them():
    results = {
        "regime": "partial",
        "conditions": ["the fee revenue is spent on buses", "the ring road is finished first", "fares are frozen"],
    }

    sentence = verdict_sentence(results=results, status="completed")
    assert sentence.startswith("Partial agreement: ")
    assert sentence.endswith(
        "; the conditions they gave: the fee revenue is spent on buses; the ring road is finished first; "
        "fares are frozen."
    )
    assert "Consensus" not in sentence


def test_no_yes_no_question_says_so_and_counts_agreement_per_crux():
    results = {
        "regime": "not_yes_no",
        "per_crux": [
            {"question": "Should new engineers ship to production in week one?", "agreement": "disagree"},
            {"question": "Should each new engineer get a named mentor?", "agreement": "agree"},
        ],
    }

    assert verdict_sentence(results=results, status="completed") == (
        "Not a yes/no question: no single yes/no question fits the topic, so agreement is reported per "
        "crux: 1 agreed, 1 disagreed."
    )
    none_found = verdict_sentence(results={"regime": "not_yes_no", "per_crux": []}, status="completed")
    assert none_found.endswith("so agreement is reported per crux: no crux was found.")


def test_a_full_score_beside_a_verdict_that_is_not_consensus_says_why_in_the_same_sentence():
    """ "No consensus … score 100%" beside "Undetermined" on one page: every point was agreed, but
    the Critic's assessment of the last answer was never recorded."""
    results = {"regime": "undetermined", "status": "max_rounds", "score": 100.0, "rounds": 3}

    sentence = verdict_sentence(results=results, status="completed")
    assert sentence == (
        "Undetermined (100% of the points agreed after 3 rounds): every point on the ledger was agreed, but a "
        "final answer was not recorded, so the rounds ran out without a consensus."
    )
    assert "No consensus within" not in sentence


def test_the_sentence_never_rates_agreement_in_words_of_its_own():
    for regime in REGIME_LABELS:
        for score in (None, 0.0, 50.0, 100.0):
            results = {"regime": regime, "score": score, "rounds": 2, "status": "max_rounds"}
            sentence = verdict_sentence(results=results, status="completed")
            assert "strong" not in sentence and "Regime" not in sentence, sentence
            if regime not in ("consensus", "conditional"):
                assert not sentence.startswith("Consensus"), sentence


def test_a_last_round_left_unassessed_is_no_verdict_and_the_sentence_says_what_is_missing():
    """A Critic turn dropped in the last round (it said nothing usable) gets no assessment: the
    verdict is Undetermined, and its sentence says a final answer is missing, never that "too
    little was recorded" beside a ledger that holds points."""
    results = {"regime": "undetermined", "status": "max_rounds", "score": 50.0, "rounds": 3, "points": [{}, {}]}

    sentence = verdict_sentence(results=results, status="completed")
    assert sentence == (
        "No consensus within the rounds allowed. Undetermined (50% of the points agreed after 3 rounds): a "
        "final answer was not recorded, so the points agreed so far are no verdict."
    )
    assert "too little" not in sentence
