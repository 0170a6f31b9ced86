from orchestration.turn_taking import Seat, addressed_in, choose_speaker

SEATS = [Seat(1, "The Macro Trader", 0), Seat(2, "Ada Hardmoney", 1), Seat(3, "The Labour Organiser", 2)]


def test_it_finds_who_was_addressed_by_name():
    assert addressed_in("Macro Trader, you are wrong.", SEATS, speaker_id=2) == [1]
    assert addressed_in("Ada, and the labour organiser too.", SEATS, speaker_id=1) == [2, 3]
    assert addressed_in("Nobody here.", SEATS, speaker_id=1) == []


def test_the_addressed_persona_answers():
    history = [(1, "opening"), (2, "opening"), (3, "opening"), (1, "Ada, that is naive.")]

    assert choose_speaker(seats=SEATS, history=history, stakes={}).persona_id == 2


def test_without_an_address_the_one_with_most_at_stake_speaks():
    history = [(1, "a"), (2, "b"), (3, "c"), (1, "A general remark.")]

    assert choose_speaker(seats=SEATS, history=history, stakes={3: 1.8}).persona_id == 3


def test_nobody_speaks_twice_in_a_row():
    history = [(2, "Ada Hardmoney talking to herself, Ada.")]

    assert choose_speaker(seats=SEATS, history=history, stakes={2: 10}).persona_id != 2


def test_the_longest_silent_speaks_when_nothing_else_decides():
    history = [(1, "x"), (2, "y"), (1, "z"), (2, "w")]

    assert choose_speaker(seats=SEATS, history=history, stakes={}).persona_id == 3


def test_two_disputants_addressing_each_other_cannot_keep_a_third_silent():
    history = [(1, "a"), (2, "b"), (3, "c"), (1, "Ada, no."), (2, "Macro Trader, yes.")]

    assert choose_speaker(seats=SEATS, history=history[:-1], stakes={1: 1.8, 2: 1.8}).persona_id == 2
    # The organiser has now been silent for a round (one message per seat): their turn.
    assert choose_speaker(seats=SEATS, history=history + [(1, "Ada, no.")], stakes={1: 1.8, 2: 1.8}).persona_id == 3
