import dataclasses

import pytest

from gateways.llm.models import ModelCall
from personas.models import Persona


@pytest.fixture(scope="module")
def core_report(django_db_setup, django_db_blocker):
    """The core suite, one seed per scenario, run once for the module's tests; one draft in five
    slips into a forbidden phrase or echoes its prompt."""
    from orchestration.evaluation.harness import suite_evaluate
    from orchestration.evaluation.scenarios import suite

    scenarios = [dataclasses.replace(scenario, slip_rate=0.2) for scenario in suite("core", [0])]
    with django_db_blocker.unblock():
        last_call = ModelCall.objects.order_by("-id").values_list("id", flat=True).first() or 0
        report = suite_evaluate(suite_name="core", model="fake", seeds=[0], scenarios=scenarios)
        yield report
        ModelCall.objects.filter(id__gt=last_call).delete()
        Persona.objects.filter(persona_id__startswith="eval-").delete()
