"""A turn cites a passage only by a tag it was given or by repeating a run of its words."""

from personas.corpus.citations import citations_in, quotes_from, strip_tags, tags_in

PROVIDED = {
    "C1": "Gold pays no yield, and that is its point. It cannot default.",
    "C2": "Inflation is a tax nobody voted for, and it falls hardest on savers.",
}


def test_only_tags_that_were_provided_count():
    assert citations_in("As I wrote [C2], and [C7] too. [ C1 ]", PROVIDED) == [PROVIDED["C2"], PROVIDED["C1"]]
    assert citations_in("No tag here [C9].", PROVIDED) == []


def test_a_verbatim_run_of_eight_words_counts_without_a_tag():
    said = "Let me be plain: inflation is a tax nobody voted for, and it falls hardest on savers."

    assert citations_in(said, PROVIDED) == [PROVIDED["C2"]]
    assert not quotes_from("inflation is a tax on savers", PROVIDED["C2"])


def test_tags_are_read_once_in_order_and_stripped():
    assert tags_in("[C2] then [C1] then [C2]") == ["C2", "C1"]
    assert strip_tags("It cannot default [C1]. Nor inflate [C2].") == "It cannot default. Nor inflate."
