"""A naive reader of natural-language debate speech, for the truth suite (truth.py).

It plays the cheap extraction model: it reads what someone said and decides which way they answer
a yes/no question, whether they accept or reject a point, and whether they are contradicting
someone. Its rules are its own (a small cue lexicon with negation and sarcasm handling), written
apart from the production parsing and without sight of any scenario's ground truth, so it reads
most plain speech right and can be fooled: a decoy quibble read as a dispute, a paraphrase it does
not connect, a hedge it takes for an answer. What a suite run measures is what the pipeline made of
that reading. Pure Python. Its regular expressions read only what someone said (a transcript
line's text, devtools/prompt_reading.py), never a prompt's wording.
"""

from __future__ import annotations

import re

from gateways.words import STOP_WORDS

YES, NO, NUANCED = "YES", "NO", "NUANCED"
ACCEPT, REJECT = "accept", "reject"

_NEGATORS = frozenset(re.findall(r"\S+", "not no never hardly barely cannot nobody nothing neither nor without"))
_AFFIRM = (
    "yes",
    "yeah",
    "absolutely",
    "of course",
    "certainly",
    "definitely",
    "i'd say so",
    "i would say so",
    "no doubt",
    "without question",
    "exactly",
    "indeed",
    "true",
    "correct",
    "right",
)
_DENY = ("no", "nope", "not", "never", "hardly", "wrong", "false", "nonsense", "mistaken", "myth")
_HEDGES = (
    "it depends",
    "depends on",
    "partly",
    "in part",
    "sometimes",
    "not always",
    "mixed",
    "both ways",
    "on balance unclear",
    "hard to say",
    "somewhere in between",
)
_SARCASM = ("oh sure", "oh yes, because", "yeah, right", "yeah right", "as if", "oh, of course", "oh of course")
_ACCEPT = (
    "hold",
    "holds",
    "stand",
    "stands",
    "agree",
    "agreed",
    "accept",
    "grant",
    "fair",
    "right",
    "convinced",
    "sound",
    "fine",
    "can live with",
    "no quarrel",
    "no objection",
)
_REJECT = (
    "disagree",
    "reject",
    "wrong",
    "overstated",
    "does not hold",
    "doesn't hold",
    "fails",
    "not convinced",
    "unconvinced",
    "mistaken",
    "objection",
    "won't wash",
    "falls apart",
)
_CONTRADICT = ("you're wrong", "you are wrong", "that's wrong", "that is wrong", "i disagree", "not true", "mistaken")
_ANSWER = re.compile(
    r"\b(?:my answer|the answer|so,? (?:yes|no)|i say|i'd say|i would say|i still say|count me|i'm a|i am a|"
    r"i come down|i land|bottom line)\b",
    re.I,
)
_NUMBERED = re.compile(r"(?:^|\s)(\d+)[.)]\s+(.+?)(?=\s+\d+[.)]\s|$)", re.S)
_ORDINALS = {"first": 1, "one": 1, "1": 1, "second": 2, "two": 2, "2": 2, "third": 3, "three": 3, "3": 3}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?;])\s+|\n+", text or "") if s.strip()]


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", (text or "").lower().replace("’", "'"))


def content_words(text: str) -> set[str]:
    """Words that carry meaning, crudely stemmed (plural s off, then the first five letters), so
    "publishes", "published" and "publishing" meet."""
    return {w.rstrip("s")[:5] for w in words(text) if w not in STOP_WORDS and len(w) > 2}


def _has(phrase: str, tokens: list[str]) -> list[int]:
    """Where ``phrase`` (one or more words) starts in ``tokens``."""
    parts = phrase.split()
    return [i for i in range(len(tokens) - len(parts) + 1) if tokens[i : i + len(parts)] == parts]


def _negated(tokens: list[str], at: int) -> bool:
    before = tokens[max(0, at - 3) : at]
    return any(t in _NEGATORS or t.endswith("n't") for t in before)


def polarity(sentence: str) -> int:
    """+1 the sentence asserts, -1 it denies, 0 it says neither plainly. Negation within three words
    before a cue turns it over ("not wrong", "don't agree", "no doubt" is an affirmation); a
    sarcastic opener turns the whole sentence over."""
    tokens = words(sentence)
    lowered = " ".join(tokens)
    score = 0
    for cue in _AFFIRM:
        for at in _has(cue, tokens):
            if cue == "no doubt":
                score += 1
                continue
            score += -1 if _negated(tokens, at) else 1
    for cue in _DENY:
        for at in _has(cue, tokens):
            if cue == "no" and at + 1 < len(tokens) and tokens[at + 1] in ("doubt", "question", "quarrel", "objection"):
                continue
            if cue == "not" and at + 1 < len(tokens) and tokens[at + 1] in ("only", "just"):
                continue
            score += 1 if _negated(tokens, at) else -1
    score -= sum(1 for t in tokens if t.endswith("n't") and t not in ("can't", "cannot"))
    score += sum(1 for t in tokens if t in ("can't", "cannot") and any(x in tokens for x in ("deny", "disagree")))
    if _sarcastic(lowered):
        return -1  # "Oh sure, gold is a wonderful hedge": what it says is what it denies
    return (score > 0) - (score < 0)


def _sarcastic(lowered: str) -> bool:
    return any(lowered.startswith(" ".join(words(marker))) for marker in _SARCASM)


def is_hedge(sentence: str) -> bool:
    lowered = " ".join(words(sentence))
    return any(hedge in lowered for hedge in _HEDGES)


def relevant(sentence: str, question: str, *, minimum: int = 2) -> bool:
    """The sentence speaks to the question: it shares enough content words with it (or states an answer)."""
    shared = content_words(sentence) & content_words(question)
    return len(shared) >= min(minimum, len(content_words(question))) or bool(_ANSWER.search(sentence))


def side_on(text: str, question: str) -> str | None:
    """Which way ``text`` answers the yes/no ``question``: YES, NO, NUANCED, or None when it does
    not say. The last sentence that speaks to the question decides (people end on their answer)."""
    side = None
    subject, against = _compared(question)
    for sentence in sentences(text):
        if not relevant(sentence, question):
            continue
        if is_hedge(sentence):
            side = NUANCED
            continue
        value = polarity(sentence)
        if value == 0 and not _ANSWER.search(sentence):
            # A plain statement of the question's own words, with no denial in it, reads as a yes.
            value = 1
        if against and _leads_with(sentence, against, subject):
            value = -value  # "Bonds are the better hedge" answers "Is gold better than bonds?" with a no
        if value:
            side = YES if value > 0 else NO
    return side


def _compared(question: str) -> tuple[set[str], set[str]]:
    """For "Is A a better B than C?": (A's words, C's words); else two empty sets."""
    before, than, after = question.lower().partition(" than ")
    if not than:
        return set(), set()
    first = [w for w in words(before) if w not in STOP_WORDS and len(w) > 2][:1]
    return content_words(" ".join(first)), content_words(after)


def _leads_with(sentence: str, against: set[str], subject: set[str]) -> bool:
    """The sentence is about C first (or only): its first compared word is one of C's."""
    for word in words(sentence):
        stem = word.rstrip("s")[:5]
        if stem in subject:
            return False
        if stem in against:
            return True
    return False


def verdict(sentence: str) -> str | None:
    """Does this sentence of an evaluation accept or reject what it is about? None: neither."""
    tokens = words(sentence)
    lowered = " ".join(tokens)
    score = 0
    for cue in _REJECT:
        for at in _has(cue, tokens):
            score += 1 if _negated(tokens, at) or lowered.startswith(("no ", "not ")) and at == 1 else -1
    for cue in _ACCEPT:
        for at in _has(cue, tokens):
            if cue in ("agree", "accept") and any(
                tokens[at : at + 3] == x for x in (["agree", "with", "nothing"], ["accept", "none", "of"])
            ):
                score -= 1
                continue
            score += -1 if _negated(tokens, at) else 1
    if _sarcastic(lowered):
        return REJECT
    return ACCEPT if score > 0 else REJECT if score < 0 else None


def numbered_points(text: str) -> dict[int, str]:
    """ "1. X. 2. Y." -> {1: "X", 2: "Y"} (a point's closing full stop dropped)."""
    found = {}
    for number, body in _NUMBERED.findall(" ".join((text or "").split())):
        found.setdefault(int(number), body.strip().rstrip("."))
    return found


def point_referred(sentence: str, points: dict[int, str]) -> list[int]:
    """Which numbered points a sentence of the evaluation is about: named by number ("point two",
    "the first"), "both"/"all", or sharing most of a point's content words."""
    tokens = words(sentence)
    named = []
    for i, token in enumerate(tokens):
        if token in _ORDINALS and (
            (i + 1 < len(tokens) and tokens[i + 1] in ("point", "one", "claim"))
            or (i > 0 and tokens[i - 1] in ("point", "the", "your"))
        ):
            number = _ORDINALS[token]
            if number in points and number not in named:
                named.append(number)
    if named:
        return named
    if {"both", "all", "every", "each"} & set(tokens) and {"point", "points"} & set(tokens):
        return sorted(points)
    own = content_words(sentence)
    return [n for n, text in points.items() if len(own & content_words(text)) >= max(2, len(content_words(text)) // 2)]


def that_clause(sentence: str) -> str:
    """What an "I agree that X" / "I grant you that X" sentence asserts: X, as a statement."""
    match = re.search(r"\b(?:agree|grant(?: you)?|accept|concede)\s+that\s+(.+)", sentence, re.I)
    if not match:
        return ""
    clause = match.group(1).strip().rstrip(".!")
    return clause[:1].upper() + clause[1:]


def addressed(text: str, names: list[str]) -> str | None:
    """The participant a message opens by addressing ("Bram, ..."), if any."""
    for name in names:
        first = name.split()[0]
        if re.match(rf"\s*(?:{re.escape(name)}|{re.escape(first)})\s*[,:]", text or ""):
            return name
    return None


def contradiction(sentence: str) -> bool:
    """A sentence that tells someone they are wrong (negation-aware: "I don't disagree" is not one)."""
    tokens = words(sentence)
    lowered = " ".join(tokens)
    for cue in _CONTRADICT:
        cue_tokens = words(cue)
        for at in _has(" ".join(cue_tokens), tokens):
            if not _negated(tokens, at):
                return True
    return "wrong about" in lowered and not _negated(tokens, lowered.split().index("wrong"))


def quibble_question(sentence: str) -> str:
    """A yes/no question made from the claim a contradiction makes ("... wrong about the date: it
    was 1971" -> "Is it true that it was 1971?")."""
    claim = re.split(r":|—| - |, because |; ", sentence, maxsplit=1)
    body = claim[1] if len(claim) > 1 else sentence
    body = re.sub(r"^\s*(?:actually|in fact|but)\s*,?\s*", "", body.strip(), flags=re.I).rstrip(".!?")
    return f"Is it true that {body[:1].lower() + body[1:]}?"[:200]
