"""A scripted persona builder for the fake Messages API: it answers the builder's structured call
with a plausible contract and, like a real model would, some quotes it made up (and one it copied
from the excerpts it was shown, so both paths are exercised). It reads only the excerpts' item
lines (devtools/prompt_reading.py), never the prompt's wording.

    with FakeMessagesAPI(responder=BuilderScript().respond) as api: ...
"""

from __future__ import annotations

from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading
from devtools.scripted_debate import excerpt_sentences

MADE_UP_QUOTES = [
    "Money is a promise the state keeps only when it is cheaper than breaking it.",
    "I have never once trusted a forecast that fits on a single slide.",
]
MADE_UP_VOICE = "Show me the ledger and I will show you the lie."


class BuilderScript:
    def __init__(self, *, copy_one_quote: bool = True):
        self.copy_one_quote = copy_one_quote
        self.calls = 0

    def proposal(self, body: dict, call: Call | None = None) -> dict:
        # The excerpts' sentences, from their item lines ([C1] (source) text), never the prompt's wording.
        sentences = excerpt_sentences(Reading(body, call or Call()))
        copied = sentences[:1] if self.copy_one_quote else []
        return {
            "tagline": "Counts the cost before the benefit.",
            "personality": "A sceptical essayist who writes about money, institutions and trust.",
            "bias": "Distrusts every central authority, even where it has worked.",
            "stakes": "A reputation built on calling the last crisis early.",
            "epistemology": "Trusts long price histories and ledgers over models and forecasts.",
            "time_horizon": "Decades; short-term moves are noise.",
            "flip_conditions": "Would change their mind if a central bank kept inflation low for a generation.",
            "evidence_policy": {
                "accepted_sources": ["Long price histories", "Ledgers and balance sheets"],
                "rejected_sources": ["Forecasts that fit on a slide"],
                "weighting": "Records outweigh models.",
            },
            "speech_patterns": ["You open with a date and a price.", "You end on a question."],
            "vocabulary": ["ledger", "debasement", "promise", "the long run"],
            "forbidden_phrases": ["Great question", "It depends"],
            "themes": ["inflation and the value of money", "trust in institutions", "gold and savings"],
            "anchor_quotes": [*MADE_UP_QUOTES, *copied],
            "voice_moments": [
                {"situation": "The central banker says inflation is under control.", "quote": MADE_UP_VOICE},
                {"situation": "Asked what savers should do.", "quote": sentences[1] if len(sentences) > 1 else ""},
            ],
        }

    def respond(self, body: dict, call: Call) -> Reply:
        self.calls += 1
        return Reply.json(self.proposal(body, call))
