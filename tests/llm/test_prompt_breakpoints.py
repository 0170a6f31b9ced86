"""Every prompt of every mode puts its cache breakpoints only where they pay: on a prefix at or above
the model's minimum cacheable length (gateways/llm/pricing.py). Read from what the fake Messages API
received in a scripted debate of each mode, the seed personas' contracts and a project context as
large as its budget allows in every prompt; the table says which calls cache at all."""

import pytest
from django.core.management import call_command

from debates.modes import mode_spec
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import PromptCache, prompt_blocks
from gateways.llm.pricing import min_cacheable_tokens
from orchestration.run import debate_run
from personas.models import Deck, Persona
from personas.services import role_personas
from projects.models import Document, Project
from tests.orchestrator.conftest import scripted_api  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

CONTEXT_TOKENS = 3000  # a deployment's larger context budget: the side calls' shared prefix passes 1,024
# mode -> model role -> whether its calls carry a breakpoint. The persona and synthesis models
# (Sonnet, 1,024 tokens) cache a contract with the context; the extraction and judging model (Haiku,
# 4,096; Collaborate's key decisions and their review too) caches none of the side calls' prefixes (the frame, the question and a 3,000-token context
# fall short of it), and the two-seat modes' seat prompts with the context reach Sonnet's minimum
# but not Opus's (the Critic's and the Reviewer's model, 4,096).
BREAKPOINTS = {
    "dialogue": {"persona": True, "extraction": False, "judging": False, "synthesis": True},
    "graph": {"persona": True, "extraction": False, "synthesis": True},
    "analyst_critic": {"analyst": True, "critic": False, "synthesis": True},
    "collaborate": {"architect": True, "reviewer": False, "synthesis": True, "extraction": False},
}

# mode -> the roles whose calls ask for breakpoints inside the user message too: the discussion's
# persona turns, after the blackboard and after the exchange since the anchor (orchestration/
# context.py, Epoch), and crux-room turns, after the room's frame and after its messages since
# the room's anchor (room_turn_context); a two-seat mode's turns send their user message whole.
IN_THE_USER_MESSAGE = {
    "dialogue": {"persona"},
    "graph": {"persona"},
    "analyst_critic": set(),
    "collaborate": set(),
}
# mode -> the persona calls that read from the cache beyond their system prefix when played again
# in order (graph mode opens no crux rooms).
CACHED_BEYOND = {"dialogue": ("dialogue_reply", "crux_room_exchange"), "graph": ("dialogue_reply",)}


@pytest.fixture
def big_project(user):
    project = Project.objects.create(owner=user, name="Vault", description="A family's savings plan.", goals="Keep it.")
    Document.objects.create(
        project=project, title="Ledger", kind="md", filename="l.md", size=1, text="Savings held in gold. " * 4000
    )
    return project


def breakpoints_of(body: dict) -> list[int]:
    """The prefix, in tokens, at each cache_control block of a request."""
    prefix, found = 0, []
    for _, tokens, control in prompt_blocks(body):
        prefix += tokens
        if control:
            found.append(prefix)
    return found


@pytest.mark.parametrize("mode", list(BREAKPOINTS))
def test_every_breakpoint_falls_on_a_prefix_the_model_caches(mode, scripted_api, user, big_project, settings):  # noqa: F811
    settings.FAULTLINE_CONTEXT_TOKENS = CONTEXT_TOKENS
    call_command("loadseed", verbosity=0)
    spec = mode_spec(mode)
    if spec.seats:
        hand = [Persona.objects.get(persona_id=pid) for pid in role_personas(spec.seats)]
    else:
        hand = list(Deck.objects.get(slug="money-and-markets").personas.order_by("name")[:3])
    api, _ = scripted_api(dispute="persistent", surface_after=2)
    debate = debate_create(
        owner=user,
        topic="Is gold still a hedge against inflation?",
        personas=hand,
        mode=mode,
        max_turns=12 if not spec.seats else 2,  # 3 openings, then 4-5 turns an aspect: some are replies
        context=big_project,
        options=DebateOptions(auto_continue=True),
    )
    debate_run(debate_id=debate.id)

    seen: dict[str, set[bool]] = {}
    in_user: set[str] = set()
    # (role, model, tokens of the first system block) of every call, shown when the table is wrong
    sizes = {(c.role, b["model"], prompt_blocks(b)[0][1]) for b, c in zip(api.requests, api.calls, strict=True)}
    for body, call in zip(api.requests, api.calls, strict=True):
        breakpoints = breakpoints_of(body)
        assert len(breakpoints) <= 4
        minimum = min_cacheable_tokens(body["model"])
        assert all(prefix >= minimum for prefix in breakpoints), (call, breakpoints, minimum)
        seen.setdefault(call.role, set()).add(bool(breakpoints))
        if len(breakpoints) > len(breakpoints_of({"system": body["system"], "model": body["model"]})):
            in_user.add(call.role)
    expected = {role: {marked} for role, marked in BREAKPOINTS[mode].items() if role in seen}
    assert {role: seen[role] for role in expected} == expected, sorted(sizes)
    assert set(seen) <= set(BREAKPOINTS[mode]), f"a role this table does not know: {set(seen)}"
    assert in_user == IN_THE_USER_MESSAGE[mode]
    if in_user:
        # Played again in order: a persona's reply reads from the cache beyond its system prefix
        # (what its previous call sent of the blackboard and the exchange), and so does its
        # exchange in a crux room (its entry's frame and the room's messages it saw).
        cache = PromptCache(clock=lambda: 0.0)
        beyond: dict[str, list[bool]] = {phase: [] for phase in CACHED_BEYOND[mode]}
        for body, call in zip(api.requests, api.calls, strict=True):
            usage = cache.usage_for(body)
            if call.role == "persona" and call.phase in beyond:
                beyond[call.phase].append(usage.cache_read_tokens > prompt_blocks(body)[0][1])
        for phase, reads in beyond.items():
            assert reads and sum(reads) >= len(reads) // 2, (phase, reads)


@pytest.mark.parametrize("pauses", [True, False])
def test_a_debate_that_pauses_for_its_owner_keeps_each_contract_cached_for_the_hour(pauses, scripted_api, user):  # noqa: F811
    """Pausing after each round, the owner's continue may come past five minutes: each persona's
    contract (its system prefix) asks for the hour's cache, and what follows it for five minutes',
    in that order (the API refuses the other). A debate that runs on asks for five minutes only."""
    call_command("loadseed", verbosity=0)
    hand = list(Deck.objects.get(slug="money-and-markets").personas.order_by("name")[:3])
    api, _ = scripted_api(dispute="none")
    debate = debate_create(
        owner=user,
        topic="Is gold still a hedge against inflation?",
        personas=hand,
        max_turns=9,
        options=DebateOptions(pause_after_round=pauses),
    )
    debate_run(debate_id=debate.id)

    persona_calls = [body for body, call in zip(api.requests, api.calls, strict=True) if call.role == "persona"]
    assert persona_calls
    for body in persona_calls:
        controls = [control for _, _, control in prompt_blocks(body) if control]
        system_control, *later = controls
        assert system_control.get("ttl", "5m") == ("1h" if pauses else "5m")
        assert all(control.get("ttl", "5m") == "5m" for control in later)
