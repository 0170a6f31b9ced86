"""A crux reported in other words is one crux (issue 39, item 2): two pairs argue the same question,
the detector words it differently for each, and one room opens on it, so the debate holds one card
for it, not two. The dispute vectors are made beside the debate (in-debate memory's embedding
lane) and used once made; staging's words alone would open a second room."""

import pytest
from django.core.management import call_command

from crux.models import CruxCard, CruxRoom, DisagreementCandidate
from debates.models import Debate

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ada Hardmoney", "Bram Macro", "Cleo Central")


def test_a_crux_reworded_for_another_pair_is_one_card_not_two(scripted_api, personas, offline):
    _, script = scripted_api(dispute="one_crux_two_wordings", latency=0.15)
    call_command(
        "rundebate",
        "--personas",
        ",".join(NAMES),
        "--topic",
        "Is gold still a store of value?",
        "--max-turns",
        "15",
    )
    debate = Debate.objects.get()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason

    # Both wordings were tracked, each for its pair; only the first earned a room.
    tracked = {c.dispute for c in DisagreementCandidate.objects.filter(debate=debate)}
    assert tracked == set(script.ONE_CRUX_WORDINGS)
    assert CruxRoom.objects.filter(debate=debate).count() == 1
    assert CruxCard.objects.filter(debate=debate).count() == 1
