"""An event is two statements (its number, then the row with its announcement), inside a caller's
transaction too: no savepoint around them, whose two round trips would double the cost of every
event a turn or a ledger update writes."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from debates.models import Event
from debates.payloads import PhaseChanged
from debates.services.events import event_append

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_event_inside_a_transaction_is_two_statements_and_numbered_in_order(debate):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        first = event_append(debate_id=debate.id, payload=PhaseChanged(phase="opening"))
        second = event_append(debate_id=debate.id, payload=PhaseChanged(phase="dialogue", aspect_index=0))

    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE", "WITH", "UPDATE", "WITH"]
    assert second.seq == first.seq + 1
    assert list(Event.objects.filter(debate=debate).values_list("seq", "kind")) == [
        (first.seq, "phase_changed"),
        (second.seq, "phase_changed"),
    ]


def test_a_failed_event_rolls_back_the_callers_transaction(debate):
    before = Event.objects.filter(debate=debate).count()
    with pytest.raises(TypeError), transaction.atomic():
        event_append(debate_id=debate.id, payload=PhaseChanged(phase="opening"))
        event_append(debate_id=None, payload=PhaseChanged(phase="dialogue"))  # no such debate: no number

    assert Event.objects.filter(debate=debate).count() == before
