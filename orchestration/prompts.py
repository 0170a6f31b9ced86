"""The prompts of the run loop: the persona's system prefix, the aspect planner, the evidence ledger.
(Turn instructions are rows of debates/turns.py; dispute prompts live in crux/prompts.py.)

The persona prefix is stable for a persona across a whole debate, so the gateway caches it; the
user message built by orchestration/context.py follows, in blocks cached as far as they stay the same.

THE ORDER OF EVERY PROMPT (stable first: the provider caches a prompt by its prefix, so whatever
changes must come after whatever does not):

1. the speaker's contract: ``persona_system_prefix`` here, or a mode's seat prompt;
2. the debate frame and its context: the owner's project (debates/services/context.py) and what
   earlier debates left (memory/context.py) -- 1 and 2 are ``stable_prefix``, the system prefix,
   the cache breakpoint after it;
   -- side calls share one prefix per debate instead: ``side_work_prompt`` (the question and the
   context, when the debate has one), then the job's instruction (``Prompt.system``);
3. the slowly changing blackboard, the user message's first block (orchestration/context.py:
   debate state, so far, where everyone stands, your position), rendered when the persona's
   anchor was set and byte-identical until it moves (``Epoch``): a breakpoint after it;
4. the exchange since the anchor, one block a message, append-only: a breakpoint after the last.
   Between two moves of the anchor a persona's call reads from the cache everything its previous
   call sent up to here (the API finds the previous breakpoint's entry a few blocks back). The
   anchor moves at a new aspect, or when the exchange passes its budget, and never past a message
   the ledger has not folded, so what leaves the exchange is in the new blackboard;
5. what changes every turn, last: open disputes, in-debate recall, insights, own writing, then
   YOUR TURN (a mode's hook or an interjection adds its section just before YOUR TURN). A new
   turn-varying block goes here, never into 1-4 (it would break the cached prefix for every call
   after it). Openings and closings send 3-5 as one block (a persona makes each of those calls
   once: nothing to reuse). A crux room's turn sends the room's frame (its question, what led
   there, both positions, the related cards) as 3, the room's messages since its anchor as 4,
   the turn as 5 (orchestration/context.py, room_turn_context).

The gateway keeps a breakpoint only where its prefix reaches the model's minimum cacheable length
(gateways/llm/pricing.py), at most four a request; ``Prompt.cache_ttl`` "1h" where the next use
may come after five minutes, or ``Prompt.prefix_cache_ttl`` "1h" for the contract alone (a debate
that pauses after each round: orchestration/speaking.py), the blocks after it on five minutes.
tests/llm/test_prompt_breakpoints.py checks it for every mode.
"""

from __future__ import annotations

from personas.models import Persona

PASS_WORD = "PASS"

RULES = """RULES
- Speak as yourself, in the first person, in plain conversational prose: no stage directions, no
  name prefix, no lists, no headings.
- Answer what the others actually said. Address people by name.
- Conceding a point that is right is allowed and respected; pretending to agree is not.
- Stay in character: your worldview, your stakes, your way of talking."""


def _lines(items) -> str:
    return "\n".join(f"- {item}" for item in items)


def persona_system_prefix(persona: Persona) -> str:
    policy = persona.evidence_policy or {}
    parts = [
        f"You are {persona.name}, taking part in Faultline: a live debate between people who see the "
        "world differently, run to find the questions they really disagree on.",
        "WHO YOU ARE\n" + persona.personality,
        "Your blind spots (you do not admit them, but they shape you): " + persona.bias,
        "What you have at stake: " + persona.stakes,
        "How you weigh evidence: " + persona.epistemology,
        "Your time horizon: " + persona.time_horizon,
        "What would change your mind: " + persona.flip_conditions,
    ]
    if policy:
        parts.append(
            "Evidence you trust: "
            + ", ".join(policy.get("acceptedSources", []) or ["(unspecified)"])
            + ". Evidence you distrust: "
            + ", ".join(policy.get("rejectedSources", []) or ["(unspecified)"])
            + ". "
            + policy.get("weighting", "")
        )
    if persona.speech_patterns:
        parts.append("HOW YOU SPEAK\n" + _lines(persona.speech_patterns))
    if persona.vocabulary:
        parts.append("Words and images you reach for: " + ", ".join(persona.vocabulary))
    if persona.forbidden_phrases:
        parts.append("NEVER SAY any of these phrases:\n" + _lines(f'"{p}"' for p in persona.forbidden_phrases))
    examples = [
        f"Situation: {ex.get('situation', '')}\nYou: {ex.get('response', '')}" for ex in persona.voice_examples or []
    ]
    examples += [f"You once said: {excerpt.content}" for excerpt in persona.anchor_excerpts.all()]
    if examples:
        parts.append("EXAMPLES OF YOUR VOICE\n" + "\n\n".join(examples))
    parts.append(RULES)
    return "\n\n".join(parts)


ASPECT_PLANNER = (
    "You plan debates. Split the topic into 2-4 aspects: distinct facets on which informed people "
    "genuinely disagree. Each needs a short label and one sentence on what is contested."
)


EVIDENCE_EXTRACTOR = (
    "You keep the evidence ledger of a debate: every concrete piece of evidence (data, studies, "
    "historical cases, named sources) a participant relied on, and what they used it for. Do not "
    "invent evidence that was not cited."
)
