"""A recurring crux's record (atlas/recurrence.py): sides per debate, who moved, which cards were
the split a debate ended on."""

import pytest

from atlas.recurrence import Appearance, card_decisive, crux_record


def appearance(debate, sides, *, resolved=False, question="Does scarcity create value?"):
    return Appearance(
        card_id=hash(debate) % 1000,
        debate_id=debate,
        debate_topic=f"topic {debate}",
        question=question,
        sides=sides,
        resolved=resolved,
    )


@pytest.mark.parametrize(
    ("sides", "resolved", "decisive"),
    [
        ({"Ada": "YES", "Bram": "NO"}, False, True),
        ({"Ada": "yes", "Bram": "no", "Cleo": "NUANCED"}, False, True),
        ({"Ada": "YES", "Bram": "NO"}, True, False),  # settled in the room
        ({"Ada": "NUANCED", "Bram": "NO"}, False, False),  # a difference, not a split
        ({"Ada": "YES", "Bram": "YES"}, False, False),
        ({}, False, False),
    ],
)
def test_a_card_is_decisive_when_it_was_left_open_yes_against_no(sides, resolved, decisive):
    assert card_decisive(sides, resolved=resolved) is decisive


def test_the_record_names_who_moved_between_debates_and_counts_the_splits():
    record = crux_record(
        [
            appearance("d1", {"Ada": "YES", "Bram": "NO"}),
            appearance("d2", {"Ada": "YES", "Cleo": "NO"}, resolved=True, question="Is rarity what makes value?"),
            appearance("d3", {"Ada": "NO", "Bram": "NO", "Cleo": "maybe"}),
        ]
    )
    assert record.question == "Does scarcity create value?"
    assert record.personas == ["Ada", "Bram", "Cleo"]
    assert [str(s) for s in record.shifts] == ["Ada: YES → YES → NO", "Cleo: NO → ?"]
    assert (record.debates, record.decisive_count, record.resolved_count) == (3, 1, 1)
    assert record.side("Bram", "d2") == "" and record.side("Cleo", "d3") == "?" and record.side("Ada", "d3") == "NO"
