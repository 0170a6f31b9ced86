import pytest

from crux.models import CruxCard, CruxRoom, DisagreementCandidate
from debates.models import Debate, Event
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_persistent_dispute_opens_exactly_one_room(scripted_api, new_debate):
    scripted_api(dispute="persistent")
    debate = new_debate(max_turns=15)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    room = CruxRoom.objects.get(debate=debate)
    candidate = DisagreementCandidate.objects.get(debate=debate)
    assert candidate.consecutive_windows >= 3 and room.candidate == candidate
    assert CruxCard.objects.get(debate=debate).room == room
    seqs = list(Event.objects.filter(debate=debate).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert Event.objects.filter(debate=debate, kind="card_posted").count() == 1


def test_one_off_quibbles_open_no_room(scripted_api, new_debate):
    _, script = scripted_api(dispute="quibbles")
    debate = new_debate(max_turns=15)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    assert script.calls["DisagreementScan"] == 5
    assert DisagreementCandidate.objects.filter(debate=debate).count() == 5
    assert not CruxRoom.objects.filter(debate=debate).exists()
    # No room, but the ledger's final stances are still YES against NO: never a consensus.
    assert debate.results["regime"] == "disagreement_no_crux"
    assert debate.results["final_sides"] == {"Ada Hardmoney": "YES", "Bram Macro": "NO", "Cleo Central": "NO"}
