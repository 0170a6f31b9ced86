import pytest

from crux.models import CruxCard, CruxRoom
from debates.models import Debate, Message
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_room_ends_when_the_exit_check_says_the_crux_surfaced(scripted_api, new_debate):
    _, script = scripted_api(dispute="persistent", surface_after=4)
    debate = new_debate(max_turns=12)

    debate_run(debate_id=debate.id)

    room = CruxRoom.objects.get(debate=debate)
    assert room.status == CruxRoom.Status.DONE and room.exit_reason == CruxRoom.ExitReason.SURFACED
    kinds = list(Message.objects.filter(room=room).order_by("turn").values_list("kind", flat=True))
    assert kinds == ["entry", "entry", "exchange", "exchange"]
    assert script.calls["CruxExitCheck"] == 1


def test_a_room_that_never_surfaces_its_crux_stops_at_the_cap(scripted_api, new_debate, settings):
    settings.CRUX_ROOM_MAX_TURNS = 8
    _, script = scripted_api(dispute="persistent", surface_after=None)
    debate = new_debate(max_turns=12)

    debate_run(debate_id=debate.id)

    room = CruxRoom.objects.get(debate=debate)
    assert room.exit_reason == CruxRoom.ExitReason.CAP
    assert Message.objects.filter(room=room).count() == 8
    assert script.calls["CruxExitCheck"] == 3  # after each exchange: turns 4, 6 and 8
    assert CruxCard.objects.filter(room=room).exists()


def test_room_conversations_answer_each_other(scripted_api, new_debate):
    scripted_api(dispute="persistent", surface_after=6)
    debate = new_debate(max_turns=12)

    debate_run(debate_id=debate.id)

    room = CruxRoom.objects.get(debate=debate)
    speakers = list(Message.objects.filter(room=room).order_by("turn").values_list("persona_id", flat=True))
    assert speakers == [room.persona_a_id, room.persona_b_id] * 3
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED
