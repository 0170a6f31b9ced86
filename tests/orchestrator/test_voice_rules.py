"""The voice guard's rules (orchestration/voice.py), table by table, in the words a capable model
slips into: the house's forbidden phrases on top of every speaker's own, a phrase cut so that what
its sentence says survives (never the sentence that carries an answer), Markdown kept whole, the
sentences worth asking for again, and a natural "Agreed: ..." line kept as speech."""

import pytest

from orchestration.voice import carrying_sentences, clean_forbidden, context_lines, strip_furniture
from personas.house import HOUSE_FORBIDDEN_PHRASES, forbidden_phrases_of
from personas.models import Persona

HOUSE = list(HOUSE_FORBIDDEN_PHRASES)
NAMES = ["Bram Macro", "Jake Moreno", "Carmen Ortiz"]

CLEANED = [
    (
        "a bare compliment goes, the rest stays",
        "That's a great point, Bram. But gold lost 40% of its value between 1980 and 1982.",
        "But gold lost 40% of its value between 1980 and 1982.",
    ),
    (
        "a compliment before an acceptance keeps the acceptance",
        "That's a great point about SMS fallback, and I accept it: apps and passkeys first.",
        "I accept it: apps and passkeys first.",
    ),
    (
        "an answer said as a hedge keeps its condition, in other words",
        "It depends on whether the ramp is funded.",
        "It turns on whether the ramp is funded.",
    ),
    (
        "an opener before the answer",
        "Great question, and my answer is yes: a family renting out its flat is using its own home.",
        "My answer is yes: a family renting out its flat is using its own home.",
    ),
    (
        "a disclaimer before a plain no",
        "As an AI trained to represent the tenants here, I'll be plain: no.",
        "I'll be plain: no.",
    ),
    (
        "curly quotes and capitals do not hide a phrase",
        "that’s a GREAT point, Carmen. Rates decide it.",
        "Rates decide it.",
    ),
    (
        "a phrase in the middle of a sentence",
        "Honestly, I understand your perspective on the centre, but rates decide it.",
        "Honestly, rates decide it.",
    ),
    (
        "Markdown stays whole: a bullet keeps its marker and its emphasis",
        "- **SMS fallback.** That's a great point, and I accept it.\n- **Grace periods.** 14 days by default.",
        "- **SMS fallback.** I accept it.\n- **Grace periods.** 14 days by default.",
    ),
    (
        "a table cell keeps its row",
        "| Everyone else | It depends on account risk: 14 days by default |",
        "| Everyone else | It turns on account risk: 14 days by default |",
    ),
    (
        "a heading that held nothing else goes, and the blank lines with it",
        "## That's a great point\n\nRates decide it.",
        "Rates decide it.",
    ),
    ("nothing but the phrase", "I understand your perspective.", ""),
    (
        "a word that only starts like the phrase",
        "That's a great pointer to the data.",
        "That's a great pointer to the data.",
    ),
]


@pytest.mark.parametrize(("case", "text", "expected"), CLEANED, ids=[case for case, _, _ in CLEANED])
def test_a_phrase_still_there_after_asking_again_is_cut_and_what_it_said_kept(case, text, expected):
    assert clean_forbidden(text, HOUSE, NAMES) == expected


def test_a_speakers_own_phrase_is_cut_like_the_houses():
    text = "At the end of the day, we hire people to ship working software."

    assert clean_forbidden(text, [*HOUSE, "At the end of the day"], NAMES) == (
        "We hire people to ship working software."
    )


def test_the_sentences_that_carry_an_answer_are_the_ones_asked_for_again():
    text = (
        "That's a great point, Bram. It depends on whether the ramp is funded. "
        "I understand your perspective on cost, but SOC 2 takes six months."
    )

    assert carrying_sentences(text, HOUSE, NAMES) == [
        "It depends on whether the ramp is funded.",
        "I understand your perspective on cost, but SOC 2 takes six months.",
    ]
    assert carrying_sentences("Great question! I understand your perspective.", HOUSE, NAMES) == []


def test_every_speaker_gets_the_house_list_on_top_of_its_own():
    own = Persona(name="Grace Liu", forbidden_phrases=["At the end of the day", "That’s a great point"])
    role = Persona(name="The Critic", forbidden_phrases=[])

    assert forbidden_phrases_of(own) == [*HOUSE, "At the end of the day"]  # the same phrase is listed once
    assert forbidden_phrases_of(role) == HOUSE
    for phrase in ("That's a great point", "I understand your perspective", "It depends", "Great question", "As an AI"):
        assert phrase in HOUSE


def test_a_natural_agreed_line_is_speech_and_only_an_echo_of_the_context_is_furniture():
    context = "── SO FAR ──\nAgreed: a named mentor for every hire.\n── YOUR TURN ──\nReply."
    said = "Agreed: a pilot in two districts before any citywide ban.\nThat is my answer, Carmen."
    echoed = "Agreed: a named mentor for every hire.\nAnd the first deploy waits for week two."

    assert strip_furniture(said, NAMES, echoes=context_lines(context)) == said
    assert strip_furniture(echoed, NAMES, echoes=context_lines(context)) == "And the first deploy waits for week two."
