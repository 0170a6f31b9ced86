"""A rundebate without --project debates for its user (--user, default the login name) as the site
does: its insights are kept in that user's memory, a later one recalls them when the user opts in
(--recall-all-insights, the setup page's checkbox), and that user's quotas refuse a start."""

import getpass

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from debates.models import Debate, UserQuota
from memory.models import Insight, MemoryRecall
from tests.memory.conftest import DECISION

pytestmark = pytest.mark.django_db(transaction=True)


def rundebate(topic: str, *extra: str) -> Debate:
    before = set(Debate.objects.values_list("pk", flat=True))
    call_command(
        "rundebate", "--personas", "Ada Hardmoney,Bram Macro", "--topic", topic, "--max-turns", "4", *extra
    )  # fmt: skip
    return Debate.objects.exclude(pk__in=before).get()


def test_without_a_project_the_debate_is_the_users_and_its_memory_is_kept_and_recalled(memory_api, personas):
    first = rundebate("Should central banks hold more gold?", "--user", "alice")

    assert first.owner.username == "alice" and first.context_project is None
    kept = Insight.objects.filter(debate=first)
    assert DECISION in {i.text for i in kept} and {i.owner.username for i in kept} == {"alice"}

    second = rundebate("Is gold still a sensible reserve asset?", "--user", "alice", "--recall-all-insights")

    recall = MemoryRecall.objects.get(debate=second)
    assert (second.owner.username, second.recall_all_insights, recall.scope) == ("alice", True, "all")
    recalled = {item.insight.text for item in recall.items.select_related("insight")}
    assert DECISION in recalled and all(i.debate_id == first.id for i in Insight.objects.filter(text__in=recalled))


def test_without_user_it_is_the_login_names_debate(memory_api, personas):
    debate = rundebate("Should central banks hold more gold?")

    assert debate.owner.username == getpass.getuser()


def test_the_users_quota_refuses_a_start_and_nothing_is_created(personas):
    alice = get_user_model().objects.create_user("alice")
    UserQuota.objects.create(user=alice, max_concurrent_debates=1)
    Debate.objects.create(owner=alice, topic="Already running", status=Debate.Status.RUNNING)

    with pytest.raises(CommandError, match="^You already have 1 debate running, and your limit is 1 at once"):
        rundebate("Gold?", "--user", "alice")

    assert Debate.objects.count() == 1
