"""A second debate in the same project recalls what the first one found, and its personas are told
the first one's facts its owner confirmed; another user's debate recalls nothing of it. Read from
the `rundebate --trace` file, i.e. exactly what was sent to the model."""

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.budget import Section
from debates.models import Debate
from gateways.embeddings import gateway as embeddings
from gateways.llm.models import ModelCall
from memory import prompts as words
from memory.models import Insight, MemoryRecall, PersonaMemory
from memory.services.review import fact_confirm
from projects.models import Project
from tests.memory.conftest import AGREED_POINT, CONCESSION, DECISION

pytestmark = pytest.mark.django_db(transaction=True)


def rundebate(trace, *, topic, user="alice", project="Thesis"):
    call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", topic, "--max-turns", "4",
        "--trace", str(trace), "--user", user, "--project", project,
    )  # fmt: skip
    return [json.loads(line) for line in trace.read_text().splitlines()]


def persona_prompts(calls) -> list[str]:
    return [call["system"][0] for call in calls if call["role"] == "persona"]


def test_a_second_debate_recalls_the_first_ones_insights_and_established_facts(memory_api, personas, tmp_path):
    first_calls = rundebate(tmp_path / "first.jsonl", topic="Should central banks hold more gold?")
    first = Debate.objects.get()
    assert not any(words.FACTS_TITLE in prompt for prompt in persona_prompts(first_calls))

    saved = Insight.objects.filter(debate=first)
    # Both closings' ledgers hold the agreed point: a candidate fact. The decision (proposed in one
    # closing, accepted in the other) is in no participant's position ledger: an insight.
    assert {(i.kind, i.text, i.agreed_by_all, i.review) for i in saved} >= {
        ("agreed", AGREED_POINT, True, "candidate"),
        ("decision", DECISION, False, ""),
    }
    assert all(i.embedding_model == embeddings.current_model() and i.embedding is not None for i in saved)
    assert {i.project.name for i in saved} == {"Thesis"} and {i.owner.username for i in saved} == {"alice"}
    kept = PersonaMemory.objects.filter(debate=first)
    assert {m.kind for m in kept} >= {"position", "concession", "message"}
    assert all(m.importance >= 7 for m in kept.filter(kind="message"))
    assert {m.owner.username for m in kept} == {"alice"}
    embedding_calls = ModelCall.objects.filter(debate=first, role="embedding", phase="memory")
    assert embedding_calls.count() == 1 and embedding_calls.get().input_tokens > 0

    fact_confirm(insight=saved.get(text=AGREED_POINT))  # the owner confirms it on the memory page
    second_calls = rundebate(tmp_path / "second.jsonl", topic="Is gold still a sensible reserve asset?")
    second = Debate.objects.exclude(pk=first.pk).get()
    recall = MemoryRecall.objects.get(debate=second)
    assert recall.method == "vector" and recall.note == ""
    items = list(recall.items.select_related("insight"))
    assert items and all(item.insight.debate_id == first.id for item in items)
    assert all(item.similarity >= recall.insight_floor for item in items)
    assert all(item.similarity >= recall.fact_floor for item in items if item.established)
    assert {item.insight.text for item in items if item.established} == {AGREED_POINT}
    assert DECISION in {item.insight.text for item in items if not item.established}

    prompts = persona_prompts(second_calls)
    assert prompts
    for prompt in prompts:
        facts = prompt.split(Section(words.FACTS_TITLE, 0).header, 1)[1].split("\n\n", 1)[0]
        assert AGREED_POINT in facts and "do not re-debate them" in facts and DECISION not in facts
        assert DECISION in prompt.split(Section(words.INSIGHTS_TITLE, 0).header, 1)[1].split("\n\n", 1)[0]
    # Each persona is reminded of its own concession, and only of its own.
    for call in (c for c in second_calls if c["role"] == "persona"):
        mine = call["system"][0].split(Section(words.PERSONA_TITLE, 0).header, 1)[1]
        names = {"ada-hardmoney": "Ada Hardmoney", "bram-macro": "Bram Macro"}
        me = names.pop(call["persona"])
        (other,) = names.values()
        assert CONCESSION.format(speaker=me) in mine
        assert CONCESSION.format(speaker=other) not in mine
    # Retrieval stats went up once per recalling debate, for exactly what was recalled.
    recalled = {item.insight_id for item in items}
    for insight in Insight.objects.filter(debate=first):
        assert insight.times_retrieved == (1 if insight.id in recalled else 0)
        assert (insight.last_retrieved_at is not None) == (insight.id in recalled)


def recall(*args) -> str:
    out = io.StringIO()
    call_command("recall", *args, stdout=out)
    return out.getvalue()


def test_the_recall_command_lists_insights_facts_and_a_personas_memories(memory_api, personas, tmp_path):
    rundebate(tmp_path / "first.jsonl", topic="Should central banks hold more gold?")
    question = "How much gold should a central bank hold?"

    printed = recall("--project", "Thesis", "--user", "alice", question)
    insights, facts = printed.split("Established facts:")
    assert "insights from similarity 0.79, facts from 0.84" in insights
    lines = [line for line in insights.splitlines() if "confidence" in line]
    assert lines and any(DECISION in line for line in lines) and any(AGREED_POINT in line for line in lines)
    similarities = [float(line.split()[0]) for line in lines]
    assert all(s >= 0.79 for s in similarities) and similarities == sorted(similarities, reverse=True)
    assert "(none)" in facts  # a candidate fact is not settled until its owner confirms it

    fact_confirm(insight=Insight.objects.get(text=AGREED_POINT))
    facts = recall("--project", "Thesis", "--user", "alice", question).split("Established facts:")[1]
    assert AGREED_POINT in facts and DECISION not in facts

    printed = recall("--persona", "Ada Hardmoney", "--user", "alice", "Did gold do badly after 1980?")
    first = printed.splitlines()[1]
    terms = re.match(r"\s+([\d.]+)\s+recency ([\d.]+)\s+relevance ([\d.]+)\s+importance ([\d.]+)", first)
    score, recency, relevance, importance = map(float, terms.groups())
    assert score == pytest.approx(0.5 * recency + 3 * relevance + 2 * importance, abs=0.02)
    assert CONCESSION.format(speaker="Ada Hardmoney") in first  # the most relevant, and important
    assert "Bram Macro grants" not in printed

    bob = get_user_model().objects.create_user("bob")
    Project.objects.create(owner=bob, name="Thesis")
    printed = recall("--project", "Thesis", "--user", "bob", "How much gold should a central bank hold?")
    assert DECISION not in printed and "(none above the threshold)" in printed


def test_another_users_memories_are_never_recalled(memory_api, personas, tmp_path):
    rundebate(tmp_path / "alice.jsonl", topic="Should central banks hold more gold?")

    # Same project name, same question: still nothing of alice's.
    bob_calls = rundebate(tmp_path / "bob.jsonl", topic="Should central banks hold more gold?", user="bob")

    bobs = Debate.objects.get(owner__username="bob")
    assert MemoryRecall.objects.get(debate=bobs).items.count() == 0
    assert not any(words.FACTS_TITLE in p or words.INSIGHTS_TITLE in p for p in persona_prompts(bob_calls))
    assert not any(DECISION in p for p in persona_prompts(bob_calls))
    assert Insight.objects.filter(owner__username="alice", times_retrieved__gt=0).count() == 0
