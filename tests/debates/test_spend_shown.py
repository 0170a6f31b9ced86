"""What a debate cost is shown where it is decided: the archive lists each debate's spend with
its cached share, the live page's status line carries the cached share, and the admin's user
quotas page shows each user's spend today and this month."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from debates.models import UserQuota
from debates.services.messages import debate_totals
from gateways.llm.models import ModelCall

pytestmark = pytest.mark.django_db


def call(debate, *, usd: str, plain: int, written: int = 0, read: int = 0) -> ModelCall:
    return ModelCall.objects.create(
        debate=debate,
        role="persona",
        provider="anthropic",
        model="claude-sonnet-5-5",
        input_tokens=plain,
        cache_creation_tokens=written,
        cache_read_tokens=read,
        output_tokens=100,
        cost_usd=Decimal(usd),
    )


def test_the_archive_shows_each_debates_spend_and_cached_share(owner_client, make_debate, personas):
    costly = make_debate(topic="Gold versus Bitcoin", hand=personas[:2])
    make_debate(topic="Never started", hand=personas[:2])
    call(costly, usd="0.0200", plain=500, written=1500)
    call(costly, usd="0.0150", plain=500, read=1500)

    # searched by persona too: the spend is summed once, not once per persona matched
    for content in (owner_client.get("/debates/").content.decode(), owner_client.get("/debates/", {"q": "a"}).content):
        content = content if isinstance(content, str) else content.decode()
        assert "$0.0350, 38% of input cached" in content  # 1,500 read of 4,000 input tokens
    never = owner_client.get("/debates/", {"q": "Never"}).content.decode()
    assert "Never started" in never and "of input cached" not in never


def test_the_status_line_totals_carry_the_cached_share(make_debate, personas):
    debate = make_debate(hand=personas[:2])
    assert debate_totals(debate.id).cached_percent is None
    call(debate, usd="0.01", plain=250, written=0, read=750)

    totals = debate_totals(debate.id)

    assert (totals.cache_read_tokens, totals.cached_percent) == (750, 75)


def test_the_user_quotas_admin_page_shows_each_users_spend(client, make_debate, user, personas):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    UserQuota.objects.create(user=user, daily_spend_usd=Decimal("5"))
    call(make_debate(hand=personas[:2]), usd="0.4100", plain=1000)
    client.force_login(admin)

    content = client.get("/admin/debates/userquota/").content.decode()

    assert "spent today (est.)" in content.lower() and "$0.4100" in content
