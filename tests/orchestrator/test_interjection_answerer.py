"""Who answers the owner's interjection: a table of cases, in the owner's own words (not the
wording the name matcher was written for)."""

import pytest

from orchestration.turn_taking import Seat, interjection_answerer

SEATS = [Seat(1, "The Macro Trader", 0), Seat(2, "Ada Hardmoney", 1), Seat(3, "The Labour Organiser", 2)]
HISTORY = [(1, "opening"), (2, "opening"), (3, "opening"), (1, "Ada, you ignore the bond market.")]


@pytest.mark.parametrize(
    ("text", "to", "stakes", "answers", "why"),
    [
        ("What would change your mind?", 3, {2: 5.0}, 3, "addressed by the form: that persona, whatever the stakes"),
        ("What would change your mind?", 1, {}, 1, "addressed to whoever just spoke: they answer anyway"),
        ("I'd like the labour organiser's view on wages.", None, {2: 5.0}, 3, "named in passing, lower case"),
        ("Ada, doesn't the 1980s record undercut you?", None, {}, 2, "named by first name, a negated question"),
        ("Is anyone here worried about pensions?", None, {1: 0.4, 2: 1.2}, 2, "nobody named: most at stake"),
        ("Perhaps someone could look at 2008?", None, {}, 2, "nobody named, no stakes: the longest silent"),
        ("Macro Trader and Ada, settle this.", None, {2: 1.0}, 2, "two named: the more concerned of them"),
        ("A trader's view, anyone?", None, {3: 1.0}, 3, "a decoy word, not a name: most at stake"),
    ],
)
def test_who_answers_an_interjection(text, to, stakes, answers, why):
    chosen = interjection_answerer(seats=SEATS, text=text, to_persona_id=to, history=HISTORY, stakes=stakes)

    assert chosen.persona_id == answers, why
