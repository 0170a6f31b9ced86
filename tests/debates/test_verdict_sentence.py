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
