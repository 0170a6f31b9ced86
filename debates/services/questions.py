"""Recording the question a debate's verdict is about (debates/question.py)."""

from __future__ import annotations

from django.db import transaction

from debates import payloads as p
from debates.models import Debate
from debates.question import Planned
from debates.services.events import event_append


def question_decide(*, debate: Debate, planned: Planned) -> None:
    """Record what the verdict is about, on the debate and in its log, in one transaction."""
    with transaction.atomic():
        Debate.objects.filter(pk=debate.pk).update(decided_on=planned.question, no_yes_no=not planned.yes_no)
        event_append(debate_id=debate.id, payload=p.QuestionDecided(question=planned.question, yes_no=planned.yes_no))
    debate.decided_on, debate.no_yes_no = planned.question, not planned.yes_no
