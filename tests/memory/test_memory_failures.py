"""Memory is side work: if recalling or remembering breaks, the debate still runs and finishes."""

import logging

import pytest
from django.core.management import call_command

from debates.models import Debate
from memory.models import Insight
from orchestration import remembering

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_broken_memory_never_fails_the_debate(memory_api, personas, monkeypatch, caplog):
    def broken(**kwargs):
        raise RuntimeError("the memory tables are gone")

    monkeypatch.setattr(remembering, "debate_recall", broken)
    monkeypatch.setattr(remembering, "insights_remember", broken)

    with caplog.at_level(logging.ERROR):
        call_command(
            "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", "Gold?", "--max-turns", "4",
            "--user", "alice", "--project", "Thesis",
        )  # fmt: skip

    assert Debate.objects.get().status == "completed"
    assert not Insight.objects.exists()
    messages = [r.getMessage() for r in caplog.records]
    assert any("starts without memory" in m for m in messages)
    assert any("Saving the insights" in m and "finishes anyway" in m for m in messages)
