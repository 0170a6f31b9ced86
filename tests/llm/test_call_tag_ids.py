"""A call's tag leaves the machine (the X-Faultline-Call header on every request to the Messages
API), so it carries ids and numbers only, never content: no persona's name, no topic, no word
anyone said. Every mode's whole debate is run through the real SDK and every header read back."""

import re
import uuid

import pytest

from debates.models import Message
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import CALL_HEADER, Call
from devtools.scripted_debate import DebateScript
from gateways.llm.models import ModelCall
from gateways.llm.providers.anthropic import call_header
from gateways.llm.types import CallTag
from orchestration.run import debate_run
from tests.orchestrator.conftest import make_persona
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)

TOPIC = "Should Zanzibar adopt a gold-backed currency?"
# The forms an id takes: a persona id (a slug), a number, an item's id (P1, D1, room-7), a phase.
ID = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$|^[A-Z]?\d+$|^room-\d+$")


def _ids_only(call: Call, persona_ids: set[str]) -> list[str]:
    """What in ``call`` is not an id of the debate's (empty when all is well)."""
    wrong = []
    for persona in (call.persona, call.addressee, *call.participants):
        if persona and persona not in persona_ids:
            wrong.append(f"persona {persona!r}")
    for text in (call.phase, call.role, *call.items):
        if text and not ID.match(text):
            wrong.append(f"id {text!r}")
    if call.debate:
        uuid.UUID(call.debate)
    return wrong


@pytest.mark.parametrize("mode", ["dialogue", "graph", "analyst_critic", "collaborate"])
def test_every_request_of_a_debate_says_what_it_is_in_ids_only(settings, mode):
    personas = [make_persona(name) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]
    hand = personas if mode in ("dialogue", "graph") else personas[:2]
    with fake_messages_apis(settings, retries=1) as serve:
        api = serve(DebateScript(dispute="persistent", surface_after=4).respond)
        debate = debate_create(
            owner=None,
            topic=TOPIC,
            personas=hand,
            mode=mode,
            max_turns=10 if len(hand) > 2 else 2,
            options=DebateOptions(auto_continue=True),
        )
        debate_run(debate_id=debate.id)

    assert api.calls, "the debate made model calls"
    persona_ids = {p.persona_id for p in hand}
    said = list(Message.objects.filter(debate=debate).exclude(text="").values_list("text", flat=True))
    content = [p.name for p in hand] + [TOPIC] + said
    for call in api.calls:
        assert not _ids_only(call, persona_ids), (call, _ids_only(call, persona_ids))
        header = "; ".join(f"{key}={value}" for key, value in vars(call).items())
        assert not any(text.lower() in header.lower() for text in content if len(text) > 3), header
    # The tag says whom a turn answers and where it stands, and the ledger keeps it.
    tagged = ModelCall.objects.filter(debate=debate).exclude(tag={})
    assert tagged.exists()
    if mode == "dialogue":
        assert any(call.addressee for call in api.calls if call.phase.startswith("dialogue_reply"))
        assert any(call.room and call.items for call in api.calls if call.phase.startswith("crux_room"))
        assert any(call.turns for call in api.calls if call.phase in ("ledger", "digest"))
    if mode == "analyst_critic":
        assert [call.round for call in api.calls if call.phase == "assessment"] == [1, 2]


def test_a_tag_is_sent_whole_and_read_back_the_same():
    tag = CallTag(
        debate_id=uuid.uuid4(),
        persona="ada-hardmoney",
        phase="crux_room_exchange",
        addressee="bram-macro",
        round=2,
        aspect=1,
        room=7,
        turn=3,
        turns=(5, 6, 7),
        participants=("ada-hardmoney", "bram-macro"),
        items=("12", "P1"),
        attempt=2,
    )

    call = Call.from_header(call_header("persona", tag)[CALL_HEADER])

    assert call == Call(
        role="persona",
        phase="crux_room_exchange",
        persona="ada-hardmoney",
        debate=str(tag.debate_id),
        addressee="bram-macro",
        round=2,
        aspect=1,
        room=7,
        turn=3,
        turns=(5, 6, 7),
        participants=("ada-hardmoney", "bram-macro"),
        items=("12", "P1"),
        attempt=2,
    )
