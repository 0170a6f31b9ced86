"""The crystallizer names who holds, gives, concedes or reframes by the persona ids it was shown
(``[persona-id] Name`` lines); the map records the participant's own name, and a name that is
nobody's (a ghost, a misspelling, an id never given) is rejected with the proposal that used it."""

import pytest

from crux.graph import Concede, DisputeGraph, Transcript
from tests.graph.builders import HAYES, SAYLOR, dispute

IDS = {"michael-saylor": SAYLOR, "arthur-hayes": HAYES}


def table() -> Transcript:
    return Transcript(
        participants=(SAYLOR, HAYES), speakers={t: (SAYLOR, HAYES)[(t - 1) % 2] for t in range(1, 9)}, ids=IDS
    )


@pytest.mark.parametrize(
    "named, holder",
    [
        ("michael-saylor", SAYLOR),
        ("[michael-saylor]", SAYLOR),
        ("Michael Saylor", SAYLOR),  # the exact name still does
        ("the michael SAYLOR", SAYLOR),
        ("Saylo r", None),
        ("Do", None),
        ("Michael", None),
        ("satoshi", None),  # an id nobody was given
    ],
)
def test_a_stance_is_held_by_the_participant_its_id_names(named, holder):
    graph, transcript = DisputeGraph(), table()
    result = graph.apply_batch(
        [dispute("Is adoption deterministic?", (named, "YES", "It is.", 1), ("arthur-hayes", "NO", "It is not.", 2))],
        transcript,
    )
    if holder is None:
        assert [r["reason"] for r in result.rejected] == [f"{named!r} is not a participant"] and not graph.stances
    else:
        assert not result.rejected and [s.holder for s in graph.stances.values()] == [SAYLOR, HAYES]


def test_a_concession_by_id_is_recorded_under_the_participants_name():
    graph, transcript = DisputeGraph(), table()
    graph.apply_batch(
        [
            dispute(
                "Is adoption deterministic?", ("michael-saylor", "YES", "It is.", 1), ("arthur-hayes", "NO", "No.", 2)
            )
        ],
        transcript,
    )
    result = graph.apply_batch([Concede(persona="arthur-hayes", target="S2", turn=4, what="adoption held")], transcript)
    assert not result.rejected and result.applied[-1]["persona"] == HAYES
