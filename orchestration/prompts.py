"""The prompts of the run loop, every word of them in one place: the persona's system prefix, the
turn context's sections (orchestration/context.py), what a turn recalls (recalling.py), a persona's
own writing (citing.py), the voice guard's second draft (speaking.py), the aspect planner, the
evidence ledger. (Turn instructions are debates/prompts.py's, dispute prompts crux/prompts.py's, a
mode's its own folder's prompts.py.) Every module-level string here is prompt wording: the test
suite rewords them all (tests/support/rewording.py), so no code may depend on how one is worded.

THE DATA IN EVERY PROMPT is written in two line forms only, whatever the instructions around it
say (gateways/llm/prompt_lines.py): a message as a transcript line ``[turn N] Name: text``
(debates/services/transcripts.py writes them), and a thing Faultline holds by id as an item line
``[ID] text`` (a participant ``[persona-id] Name``, a tracked dispute ``[12] ...``, a point
``[P1] ...``, the map's ``[D1]``/``[S1]``/``[R1]``, a passage ``[C1] (source) ...``). Anything a
scripted test model reads of a prompt is in these lines (devtools/prompt_reading.py); the rest of
what it needs travels in the call's tag (ids only, gateways/llm/types.py CallTag) and schema.

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

from personas.house import forbidden_phrases_of
from personas.models import Persona

PASS_WORD = "PASS"  # the word a turn answers with to pass (not wording: never reworded)

RULES = """RULES
- Speak as yourself, in the first person, in plain conversational prose: no stage directions, no
  name prefix, no lists, no headings.
- Answer what the others actually said. Address people by name.
- Conceding a point that is right is allowed and respected; pretending to agree is not.
- Stay in character: your worldview, your stakes, your way of talking."""

# ── the persona's contract, as its system prefix ─────────────────────────────────────────────────
PERSONA_INTRODUCTION = (
    "You are {name}, taking part in Faultline: a live debate between people who see the "
    "world differently, run to find the questions they really disagree on."
)
PERSONA_WHO = "WHO YOU ARE\n{personality}"
PERSONA_BIAS = "Your blind spots (you do not admit them, but they shape you): {bias}"
PERSONA_STAKES = "What you have at stake: {stakes}"
PERSONA_EPISTEMOLOGY = "How you weigh evidence: {epistemology}"
PERSONA_HORIZON = "Your time horizon: {time_horizon}"
PERSONA_FLIP = "What would change your mind: {flip_conditions}"
PERSONA_EVIDENCE = "Evidence you trust: {accepted}. Evidence you distrust: {rejected}. {weighting}"
PERSONA_UNSPECIFIED = "(unspecified)"
PERSONA_SPEECH = "HOW YOU SPEAK\n{patterns}"
PERSONA_VOCABULARY = "Words and images you reach for: {words}"
PERSONA_FORBIDDEN = "NEVER SAY any of these phrases:\n{phrases}"
PERSONA_EXAMPLE = "Situation: {situation}\nYou: {response}"
PERSONA_EXCERPT = "You once said: {content}"
PERSONA_EXAMPLES = "EXAMPLES OF YOUR VOICE\n{examples}"


def _lines(items) -> str:
    return "\n".join(f"- {item}" for item in items)


def persona_system_prefix(persona: Persona) -> str:
    policy = persona.evidence_policy or {}
    parts = [
        PERSONA_INTRODUCTION.format(name=persona.name),
        PERSONA_WHO.format(personality=persona.personality),
        PERSONA_BIAS.format(bias=persona.bias),
        PERSONA_STAKES.format(stakes=persona.stakes),
        PERSONA_EPISTEMOLOGY.format(epistemology=persona.epistemology),
        PERSONA_HORIZON.format(time_horizon=persona.time_horizon),
        PERSONA_FLIP.format(flip_conditions=persona.flip_conditions),
    ]
    if policy:
        parts.append(
            PERSONA_EVIDENCE.format(
                accepted=", ".join(policy.get("acceptedSources", []) or [PERSONA_UNSPECIFIED]),
                rejected=", ".join(policy.get("rejectedSources", []) or [PERSONA_UNSPECIFIED]),
                weighting=policy.get("weighting", ""),
            )
        )
    if persona.speech_patterns:
        parts.append(PERSONA_SPEECH.format(patterns=_lines(persona.speech_patterns)))
    if persona.vocabulary:
        parts.append(PERSONA_VOCABULARY.format(words=", ".join(persona.vocabulary)))
    # The house's phrases and the persona's own (personas/house.py): every persona has some.
    parts.append(PERSONA_FORBIDDEN.format(phrases=_lines(f'"{p}"' for p in forbidden_phrases_of(persona))))
    examples = [
        PERSONA_EXAMPLE.format(situation=ex.get("situation", ""), response=ex.get("response", ""))
        for ex in persona.voice_examples or []
    ]
    examples += [PERSONA_EXCERPT.format(content=excerpt.content) for excerpt in persona.anchor_excerpts.all()]
    if examples:
        parts.append(PERSONA_EXAMPLES.format(examples="\n\n".join(examples)))
    parts.append(RULES)
    return "\n\n".join(parts)


# ── a turn's context (orchestration/context.py): its sections' titles and lines ──────────────────
STATE_TITLE = "DEBATE STATE"
STATE_TOPIC = "Topic: {topic}"
STATE_DECIDED_ON = "Decided on: {question} (say where you stand on it: yes, no, or on what condition)"
STATE_ASPECTS_TO_COME = "Aspects to come: {aspects}"
STATE_ASPECT = "Current aspect ({number} of {count}): {label} — {description}"
STATE_PARTICIPANTS = "Participants:"
SO_FAR_TITLE = "SO FAR"
SO_FAR_AGREED = "Agreed: {decision}"
SO_FAR_PROPOSAL = "Proposal by {by}: {proposal}"
SO_FAR_REACTIONS = " ({reactions})"
SO_FAR_SUMMARY = "So far: {summary}"
SO_FAR_EARLIER_ROUNDS = "Earlier rounds: {summary}"
OTHERS_TITLE = "WHERE EVERYONE STANDS"
OTHERS_NO_POSITION = "(no clear position yet)"
OTHERS_ON_ASPECT = "On this aspect: {position}"
OTHERS_CITED = "  cited: {evidence}"
OTHERS_OWE = "  still owes an answer to: {challenges}"
OTHERS_AGREE = "  agrees with you on: {points}"
OTHERS_DIFFER = "  disagrees with you on: {points}"
MINE_TITLE = "YOUR POSITION SO FAR"
MINE_ARGUED = "You've argued: {stance}"
MINE_CONCEDED = "You've conceded: {concessions}"
MINE_MOVED = "Your position moved: {shifts}"
MINE_OWED = "Challenges you haven't answered: {challenges}"
MINE_EVIDENCE = "Evidence you've cited: {evidence}"
# The same section about the other side of a crux room (the room's frame).
THEIRS_TITLE = "{name}'S POSITION"
THEIRS_ARGUED = "They've argued: {stance}"
THEIRS_CONCEDED = "They've conceded: {concessions}"
THEIRS_MOVED = "Their position moved: {shifts}"
THEIRS_OWED = "Challenges they haven't answered: {challenges}"
THEIRS_EVIDENCE = "Evidence they've cited: {evidence}"
DISPUTES_TITLE = "OPEN DISPUTES"
DISPUTES_CARD = "• Crux found: {question} ({stances})"
DISPUTES_CLAIM = "• {dispute} — {a} vs {b} [{status}]"
CONCESSIONS_TITLE = "CONCESSIONS MADE IN THIS DEBATE"
INSIGHTS_TITLE = "KEY INSIGHTS"
TURN_TITLE = "YOUR TURN"
TURN_OTHERS = "the others"  # whom a reply answers when nobody spoke before it
EXCHANGE_TITLE = "RECENT EXCHANGE"
ROOM_EXCHANGE_TITLE = "THIS ROOM SO FAR"
ROOM_TITLE = "THIS ROOM"
ROOM_FRAME = "You and {other} are here to get to the bottom of this disagreement:"
ROOM_TRIGGERS_TITLE = "WHAT WAS SAID THAT LED HERE"

# ── what a turn recalls (orchestration/recalling.py) ──────────────────────────────────────────────
EARLIER_TITLE = "EARLIER IN THIS DEBATE"
EARLIER_RULE = "Said or settled earlier and relevant now; build on it, do not repeat it:"
BRIDGE_TITLE = "RELATED CRUXES FOUND BEFORE"
BRIDGE_RULE = "Earlier crux cards on related questions, and how they came out:"

# ── a persona's own writing (orchestration/citing.py) ─────────────────────────────────────────────
OWN_WRITING_TITLE = "FROM YOUR OWN WRITING"
OWN_WRITING_RULE = (
    "Passages you wrote yourself. If your turn draws on one, put its tag right after that sentence, "
    "like [C1]. Use only these tags; never make one up."
)

# ── the voice guard's second draft (orchestration/speaking.py) ───────────────────────────────────
SECOND_DRAFT_FORBIDDEN = (
    "Your last draft used a phrase you never use. Say it again in your own words, without: {phrases}"
)
SECOND_DRAFT_KEEP = (
    "These sentences of your last draft carried what you meant: say what they say again, in other "
    "words, so nothing of your answer is lost:\n{sentences}"
)
SECOND_DRAFT_EMPTY = (
    "Your last draft said nothing in your own voice: it only repeated the prompt's notes, or was empty. "
    "Answer now, in your own words, as yourself."
)

# ── side work ─────────────────────────────────────────────────────────────────────────────────────
ASPECT_PLANNER = (
    "You plan debates. Split the topic into 2-4 aspects: distinct facets on which informed people "
    "genuinely disagree. Each needs a short label and one sentence on what is contested. Then name "
    "the yes/no question the debate's verdict will be about: the topic itself if it is one; for an "
    "open topic, the yes/no question that best captures what it must decide. If no single yes/no "
    "question fits (a plan with several parts, a budget to split), say so instead."
)
PLANNING_INPUT = "Topic: {topic}\nParticipants:\n{participants}"

EVIDENCE_EXTRACTOR = (
    "You keep the evidence ledger of a debate: every concrete piece of evidence (data, studies, "
    "historical cases, named sources) a participant relied on, and what they used it for. Do not "
    "invent evidence that was not cited."
)
EVIDENCE_INPUT = "Debate: {topic}\nParticipants:\n{participants}\n\n{transcript}"
