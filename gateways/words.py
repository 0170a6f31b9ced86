"""The one list of English stop words: words that carry no topic, left out when two texts are
compared by the words they share (crux/staging.py: is a reported dispute one already tracked;
personas/corpus/builder.py: which passage of a persona's corpus a quote comes from;
orchestration/evaluation/reading.py: the truth suite's naive reader). Pure Python, importing
nothing of ours, so any layer may use it.

Lower case, straight apostrophes; each user keeps its own tokenizer and its own length rule.
"""

from __future__ import annotations

import re

STOP_WORDS = frozenset(
    re.findall(
        r"\S+",
        "a an the and or but if so than then as of to in on at for with by from into over about "
        "is are was were be been do does did have has had will would can could should may might must "
        "it its this that these those there here "
        "i me my we our you your he his she her they them their "
        "what which who whom when where why how whether "
        "all any more most very just also only not no "
        "what's it's i'm i'd i'll",
    )
)
