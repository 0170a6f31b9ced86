import re

import pytest

from debates.exports import debate_markdown
from debates.models import Message
from debates.selectors import debate_view
from devtools.fake_messages_api import Reply, user_text
from orchestration.run import debate_run
from orchestration.voice import context_lines, strip_furniture
from tests.support.announcement_recorder import AnnouncementRecorder

pytestmark = pytest.mark.django_db(transaction=True)

# What the scripted personas really say, once the echoed prompt is gone (see DebateScript).
SPOKEN = re.compile(
    r"^(I am .+|Closing for .+|.+, you are wrong about the timing.+|.+, my position on this is firm.+)$"
)
FURNITURE = [
    "──",
    "(you)",
    "[Active]",
    "[In a crux room]",
    "Topic:",
    "Participants:",
    "YOUR TURN",
    "[Closing statement]",
]


def test_turns_that_echo_their_prompt_reach_the_page_and_the_record_without_it(scripted_api, new_debate):
    """A small model's habit: it recites its context (headers, the participant list with its
    "(you)", open disputes as "• A vs B [Active]", the recent exchange, the instruction) around
    what it means to say, and tags the turn "—[Closing statement]"."""
    api, script = scripted_api(dispute="persistent", chunk_size=7)
    respond = script.respond

    def echoing(body, call):
        reply = respond(body, call)
        if not body.get("stream"):
            return reply
        context = user_text(body)
        return Reply.says(f"{context}\n{reply.text} —[Closing statement]\n── YOUR TURN ──", chunk_size=7)

    api.responder = echoing
    debate = new_debate(max_turns=9)

    with AnnouncementRecorder(debate.id) as recorder:
        debate_run(debate_id=debate.id)

    texts = list(Message.objects.filter(debate=debate).values_list("text", flat=True))
    assert len(texts) > 9 and Message.objects.filter(debate=debate, room__isnull=False).exists()
    for text in texts:
        assert SPOKEN.match(text), text
    page = recorder.pushed + debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    for furniture in FURNITURE:
        assert furniture not in page, furniture


def test_prose_is_left_alone():
    text = "Bram, the 1970s say otherwise: gold tripled. NATO data agrees, and I'm sure of it."
    shouted = "NEVER.\n• Gold held its value for a century.\nThat is my case."

    assert strip_furniture(text, ["Ada Hardmoney", "Bram Macro"]) == text
    assert strip_furniture(shouted, ["Ada Hardmoney", "Bram Macro"]) == shouted


def test_any_line_of_the_context_repeated_verbatim_is_an_echo():
    context = "── KEY INSIGHTS ──\n• They talk past each other on time horizons.\n── YOUR TURN ──\nReply."
    text = "• They talk past each other on time horizons.\nBram, the long run decides it."

    cleaned = strip_furniture(text, ["Bram Macro"], echoes=context_lines(context))

    assert cleaned == "Bram, the long run decides it."


def test_an_unfinished_line_that_may_be_furniture_is_held_back_while_streaming():
    names = ["Ada Hardmoney", "Bram Macro"]

    assert strip_furniture("The long run decides it.\nParticip", names, final=False).strip() == (
        "The long run decides it."
    )
    assert strip_furniture("── DEBATE", names, final=False) == ""
    assert strip_furniture("Bram, the long run", names, final=False) == "Bram, the long run"


def test_the_prompt_s_data_lines_echoed_are_furniture():
    """A transcript line ("[turn 4] Name: ...") or a participant's line ("[id] Name (you)") of the
    prompt (gateways/llm/prompt_lines.py), recited as if it were speech."""
    names = ["Ada Hardmoney", "Bram Macro"]
    text = "[turn 4] Bram Macro: gold is dead.\n[ada-hardmoney] Ada Hardmoney (you)\n[C1] is mine.\nBram, gold lives."

    assert strip_furniture(text, names) == "[C1] is mine.\nBram, gold lives."
