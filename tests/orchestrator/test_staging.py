import pytest

from crux.staging import Finding, Thresholds, TrackedCandidate, observe, ready_to_open

PAIR = (1, 2)
T = Thresholds(min_consecutive_windows=3, min_confidence=0.8, pair_cooldown_seconds=300)


def run_windows(findings_per_window):
    tracked: list[TrackedCandidate] = []
    for window, findings in enumerate(findings_per_window, start=1):
        created = observe(tracked, window=window, findings=findings, message_ids=[window])
        for candidate in created:
            candidate.id = len(tracked) + 1
        tracked += created
    return tracked


def test_three_consecutive_windows_with_confidence_open_a_room():
    finding = Finding(PAIR, "Does the long run matter more than the next quarter?", 0.9)
    (candidate,) = run_windows([[finding]] * 3)

    assert candidate.consecutive_windows == 3 and candidate.seen_count == 3
    assert ready_to_open(candidate, now=1000, pair_last_room_at=None, thresholds=T)


def test_a_gap_restarts_the_run():
    finding = Finding(PAIR, "Does the long run matter more?", 0.9)
    (candidate,) = run_windows([[finding], [finding], [], [finding]])

    assert candidate.consecutive_windows == 1 and candidate.seen_count == 3
    assert not ready_to_open(candidate, now=1000, pair_last_room_at=None, thresholds=T)


def test_low_confidence_never_opens_a_room():
    finding = Finding(PAIR, "Is gold a hedge?", 0.79)
    (candidate,) = run_windows([[finding]] * 5)

    assert not ready_to_open(candidate, now=1000, pair_last_room_at=None, thresholds=T)


def test_the_detector_echoing_a_known_id_matches_despite_new_wording():
    first = Finding(PAIR, "Is gold a hedge?", 0.9)
    tracked = run_windows([[first]])
    reworded = Finding(PAIR, "Does bullion protect savers against inflation?", 0.9, known_id=tracked[0].id)

    observe(tracked, window=2, findings=[reworded], message_ids=[2])

    assert len(tracked) == 1 and tracked[0].consecutive_windows == 2


def test_an_existing_room_or_a_cooling_pair_blocks_another():
    finding = Finding(PAIR, "Is gold a hedge?", 0.95)
    (candidate,) = run_windows([[finding]] * 3)

    assert not ready_to_open(candidate, now=1000, pair_last_room_at=900, thresholds=T)
    assert ready_to_open(candidate, now=1300, pair_last_room_at=900, thresholds=T)
    candidate.has_room = True
    assert not ready_to_open(candidate, now=5000, pair_last_room_at=None, thresholds=T)


def test_a_self_dispute_is_ignored():
    assert run_windows([[Finding((1, 1), "Am I right?", 0.99)]]) == []


@pytest.mark.parametrize(
    ("first", "later", "one_dispute"),
    [
        # Reworded with words that carry no topic (pronouns, hedges, "as they say"): the same dispute.
        ("Is nuclear power safe?", "Is nuclear power safe, as they say it has been?", True),
        (
            "Does rent control reduce housing supply?",
            "Would rent control really reduce the housing supply, as you claim?",
            True,
        ),
        # Reported in a detector's own words around the question: still the same dispute.
        ("Is inflation falling?", "Whether inflation is falling (disputed)", True),
        ("Whether inflation is falling", "The question of whether inflation is falling", True),
        # Another question between the same pair: a dispute of its own.
        ("Is nuclear power safe?", "Should the state pay for new reactors?", False),
        ("Does rent control reduce housing supply?", "Do landlords deserve their profits?", False),
        # Decoys: most words shared, but the one that carries the topic differs.
        ("Is nuclear power safe?", "Is nuclear power cheap?", False),
        ("Should central banks target asset prices?", "Should central banks target inflation at all?", False),
    ],
)
def test_a_dispute_reported_without_its_id_is_matched_by_the_words_that_carry_its_topic(first, later, one_dispute):
    tracked = run_windows([[Finding(PAIR, first, 0.9)], [Finding(PAIR, later, 0.9)]])

    assert len(tracked) == (1 if one_dispute else 2)
    assert tracked[-1].consecutive_windows == (2 if one_dispute else 1)  # a run grows, or a new one starts
