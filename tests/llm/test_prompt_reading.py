"""What a scripted model reads of a prompt (devtools/prompt_reading.py): the two data lines every
prompt writes (gateways/llm/prompt_lines.py) and nothing of the wording around them."""

from devtools.fake_messages_api import Call
from devtools.prompt_reading import Item, Reading, Said, read_lines
from gateways.llm.prompt_lines import item_line, said_line

PROMPT = "\n".join(
    [
        "── ANY TITLE AT ALL ──",
        "Whatever the instructions say, in any words: [turn 9] Nobody: this is not a line of its own.",
        "People:",
        item_line("ada-hardmoney", "Ada Hardmoney (you)"),
        item_line("bram-macro", "Bram Macro"),
        "",
        said_line(4, "Ada Hardmoney", "Gold holds.\n\n[C1] quoted at the start of a further line\n- a list"),
        said_line(5, "Bram Macro", "It does not: look at 1980."),
        item_line("D1", "(horizon) Does gold hold?"),
        item_line("S1", "Ada Hardmoney: YES — it always has (IN)", depth=1),
        item_line("R1", "Bram Macro: attacks S1 — 1980 (OUT)", depth=2),
        item_line("S2", "Bram Macro: NO — look at 1980 (UNDEC)", depth=1),
        item_line("C1", "(gold.md) First line\nsecond line"),
        "── ANOTHER ──",
        "  indented prose after a title is not a text's further line",
    ]
)


def test_it_reads_transcript_lines_with_their_further_lines_whatever_they_hold():
    said, _ = read_lines(PROMPT)

    assert said == [
        Said(4, "Ada Hardmoney", "Gold holds.\n\n[C1] quoted at the start of a further line\n- a list"),
        Said(5, "Bram Macro", "It does not: look at 1980."),
    ]


def test_it_reads_item_lines_each_under_the_one_it_is_listed_under():
    _, items = read_lines(PROMPT)

    assert items["D1"] == Item("D1", "(horizon) Does gold hold?")
    assert items["S1"] == Item("S1", "Ada Hardmoney: YES — it always has (IN)", depth=1, parent="D1")
    assert (items["S1"].holder, items["S1"].held) == ("Ada Hardmoney", "YES — it always has (IN)")
    assert items["R1"].parent == "S1" and items["S2"].parent == "D1"
    assert items["C1"].text == "(gold.md) First line\nsecond line"
    assert "turn" not in items and len(items) == 7


def test_names_come_from_participant_lines_in_the_tag_s_seat_order():
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": PROMPT}]}]}
    call = Call(participants=("bram-macro", "ada-hardmoney"), turns=(5,), addressee="bram-macro")

    reading = Reading(body, call)

    assert reading.participants == ["Bram Macro", "Ada Hardmoney"]
    assert reading.name_of(call.addressee) == "Bram Macro" and reading.name_of("nobody") == ""
    assert reading.asked() == [(reading.said[1], [reading.said[0]])]
    assert reading.title == ""
