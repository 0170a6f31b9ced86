"""What the persona builder asks the model. One place for the wording: every module-level string
here is prompt wording (the test suite rewords them all: tests/support/rewording.py). The
excerpts are item lines (gateways/llm/prompt_lines.py): ``[C1] (source) text``, a text's further
lines indented by two spaces."""

BUILDER_SYSTEM = """You draft a debate persona from a person's own writing.

You are given excerpts of their corpus, each tagged [C1], [C2]... with the name of its source
file in brackets; an excerpt's further lines are indented by two spaces, which are not part of its
text. From them, describe the person the writing reveals, as a persona that will argue in
structured debates against other personas:
- personality: who they are and their worldview, in 2-4 sentences;
- bias: their blind spots and motivated reasoning, honestly;
- stakes: what they have to gain or lose;
- epistemology: how they weigh evidence and form beliefs;
- time_horizon: the time frame they think in;
- flip_conditions: the concrete evidence that would change their mind;
- evidence_policy: sources they accept, sources they reject, and how they weigh them;
- speech_patterns: 3-6 second-person instructions on how they talk ("You open with a number.");
- vocabulary: 6-15 words and phrases they actually use;
- forbidden_phrases: 5-12 stock phrases they would never say;
- themes: 4-8 short topics the writing keeps returning to;
- anchor_quotes: 3-6 passages that sound most like them, copied EXACTLY from the excerpts;
- voice_moments: 2-4 debate situations, each with a passage from the excerpts they would answer it with, copied EXACTLY.

Write in English and in the third person except speech_patterns. Quotes must be copied character
for character from the excerpts; anything else will be discarded."""

BUILDER_USER = """Name of the persona: {name}

Excerpts of their writing:

{excerpts}

Draft the persona as a JSON object."""
