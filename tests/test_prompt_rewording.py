"""The whole suite runs with every prompt's wording changed (tests/support/rewording.py), so its
whole-debate tests prove that no scripted model, test or code depends on how an instruction is
worded. These tests prove the rewording itself: it changes every prompt constant of every app,
keeps what fills them, reaches every copy the code holds and every request a debate sends (in this
process and on the shared test worker), and a test marked ``original_prompts`` sees the originals."""

import sys
import time

import pytest

from debates.models import Debate
from debates.services.lifecycle import debate_create, debate_start
from devtools.scripted_debate import DebateScript
from orchestration import prompts
from orchestration.run import debate_run
from tests.orchestrator.conftest import make_persona
from tests.support import rewording as how
from tests.support.fake_anthropic import fake_messages_apis

needs_rewording = pytest.mark.skipif(not how.enabled(), reason=f"{how.ENV}=0: the original wording")


def test_every_prompt_constant_of_every_app_is_reworded_and_keeps_its_placeholders():
    constants = how.prompt_constants()

    modules = {module.__name__ for module in how.prompt_modules()}
    assert {"orchestration.prompts", "debates.prompts", "crux.prompts", "crux.graph.prompts"} <= modules
    assert {module for module, _ in constants} == modules, "every prompts module has wording"
    assert len(constants) > 150
    for (module, name), text in constants.items():
        new = how.reworded(text)
        assert new != text, f"{module}.{name} is not reworded"
        assert how.placeholders(new) == how.placeholders(text), f"{module}.{name}"
        assert new.strip() and text[: len(text) - len(text.lstrip())] == new[: len(new) - len(new.lstrip())]


def test_a_long_instruction_is_said_in_another_order_and_other_words():
    text = "You keep the ledger. Never invent what was not said.\n\nRULES\n- Be brief.\n- Name people."

    assert how.reworded(text) == (
        "Not ever make up what was not said. You keep the ledger.\n\nHOW TO SPEAK\n- Name people.\n- Be brief."
    )


@needs_rewording
def test_every_copy_of_a_prompt_the_code_holds_is_the_reworded_one(rewording):
    originals = {text: key for key, text in rewording.originals.items() if not text.isidentifier()}
    left = []
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] not in how.PACKAGES or module_name.startswith("tests.support.rewording"):
            continue
        for name, value in vars(module).items():
            if isinstance(value, str) and value in originals:
                left.append(f"{module_name}.{name}")
    assert left == []
    assert rewording.new["orchestration.prompts", "RULES"] == prompts.RULES
    from debates.turns import turn_kind

    assert turn_kind("reply").instruction == rewording.new["debates.prompts", "REPLY"]  # a table row too


@pytest.mark.original_prompts
def test_a_test_of_a_prompt_s_own_wording_sees_the_original():
    assert prompts.RULES.startswith("RULES\n- Speak as yourself")


def _reworded_rules_sent(requests: list[dict], rewording) -> bool:
    """Whether the persona prompts sent hold the reworded rules, and none the original ones."""
    key = ("orchestration.prompts", "RULES")
    systems = ["".join(block.get("text", "") for block in body.get("system", [])) for body in requests]
    sent = [system for system in systems if rewording.new[key] in system]
    return bool(sent) and not any(rewording.originals[key] in system for system in systems)


@needs_rewording
@pytest.mark.django_db(transaction=True)
def test_a_whole_debate_speaks_in_the_reworded_prompts_and_still_finds_its_crux(settings, rewording):
    personas = [make_persona(name) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]
    with fake_messages_apis(settings, retries=1) as serve:
        api = serve(DebateScript(dispute="persistent", surface_after=4).respond)
        debate = debate_create(owner=None, topic="Is gold money?", personas=personas, max_turns=12)
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    assert debate.crux_cards.exists(), "the scripted crux was found, the prompts' wording whatever it is"
    assert _reworded_rules_sent(api.requests, rewording)


@needs_rewording
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_shared_test_worker_speaks_in_the_reworded_prompts(celery_worker_process, worker_messages_api, rewording):
    personas = [make_persona(name) for name in ("Ada Hardmoney", "Bram Macro")]
    before = len(worker_messages_api.requests)
    debate = debate_start(owner=None, topic="Is gold money?", personas=personas, max_turns=4)

    deadline = time.monotonic() + 300
    while Debate.objects.get(pk=debate.pk).status not in (Debate.Status.COMPLETED, Debate.Status.FAILED):
        assert time.monotonic() < deadline, "the worker did not finish the debate"
        time.sleep(0.2)

    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED
    assert _reworded_rules_sent(worker_messages_api.requests[before:], rewording)
