"""The Analyst/Critic point ledger and consensus score (seeds/dual-ai-debate.md, Proflow).

Pure Python: the mode folds each round's agreement assessment into the ledger, and the score is
read from the ledger, so a point restated in new words in a later round is matched to the earlier
one instead of being counted twice.

Matching keeps meaning. A statement is read as a ``Claim``: its polarity (not, no, never, n't,
without...), quantifiers (all, some, most, few, only...), numbers (10% is not 30%, "ten" is 10),
modal strength and hedges (must, should, can, may, probably...) and its content words, folded only
for inflection (funds/fund, rebalancing/rebalance, beaten/beat). Two statements are the same point
when all of these are equal and the roles are not swapped ("A beats B" is not "B beats A"; "B is
beaten by A" is). Anything less stays a separate point: a restatement in other words is counted
again rather than risk folding a different claim into an agreed one.

A statement that is the negation of a point in the ledger (same claim, opposite polarity; or "no X"
against "every X") is a new point when the Critic accepts it: it supersedes the old point, which leaves the score. Established
facts recalled from memory are not re-debated: an assessment that would flip one is recorded as a
challenge to it and the fact stands.

    score = agreed / (agreed + contested + unverifiable) * 100; no points -> 0 (and the debate
    continues); consensus when score >= CONSENSUS_SCORE and no contested or unverifiable point is
    still open (Proflow files unverifiable points as contested).
"""

from __future__ import annotations

import functools
import re
from dataclasses import asdict, dataclass, field, replace

from orchestration.modes.analyst_critic import prompts as words

CONSENSUS_SCORE = 85.0
SUMMARY_LIMIT_CHARS = 4_000
AGREED, CONTESTED, UNVERIFIABLE, SUPERSEDED = "agreed", "contested", "unverifiable", "superseded"
NEGATED = "negated"  # a challenge to an established fact: the Critic accepted its negation

# ── what a statement says ─────────────────────────────────────────────────────────────────────

# Words that carry no claim of their own. Negation, quantifiers, numbers and modals are read
# below, never dropped here.
_FILLER = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "but",
        "is",
        "are",
        "was",
        "were",
        "am",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "with",
        "as",
        "by",
        "at",
        "from",
        "than",
        "then",
        "so",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "having",
        "we",
        "you",
        "they",
        "he",
        "she",
        "i",
        "me",
        "us",
        "them",
        "our",
        "your",
        "their",
        "his",
        "her",
        "there",
        "here",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "very",
        "just",
        "also",
        "really",
        "quite",
        "about",
        "around",
        "roughly",
        "approximately",
    ]
)
_NEGATORS = frozenset(["not", "no", "never", "none", "nobody", "nothing", "nowhere", "neither", "nor", "without"])
_QUANTIFIERS = {
    **dict.fromkeys(["all", "every", "each", "everyone", "everybody", "everything", "always"], "all"),
    **dict.fromkeys(["any", "anyone", "anybody", "anything"], "any"),
    **dict.fromkeys(["some", "someone", "somebody", "something", "sometimes", "several"], "some"),
    **dict.fromkeys(["most", "mostly", "majority", "usually", "generally", "typically", "mainly", "largely"], "most"),
    **dict.fromkeys(["many", "often", "frequently", "lots"], "many"),
    **dict.fromkeys(["few", "rarely", "seldom", "hardly", "barely", "scarcely", "minority"], "few"),
    **dict.fromkeys(["only", "solely", "exclusively"], "only"),
    "both": "both",
}
_MODALS = {
    **dict.fromkeys(["must", "required", "mandatory", "necessary"], "must"),
    **dict.fromkeys(["should", "ought"], "should"),
    **dict.fromkeys(["will", "shall"], "will"),
    "would": "would",
    **dict.fromkeys(["can", "could", "able"], "can"),
    **dict.fromkeys(["may", "might", "possibly", "perhaps", "maybe", "possible", "arguably"], "may"),
    **dict.fromkeys(["likely", "probably", "presumably", "apparently", "seemingly", "seem", "seems"], "likely"),
    **dict.fromkeys(["definitely", "certainly", "surely", "clearly", "undoubtedly"], "certain"),
}
# Several words read as one: (words) -> a marker ("neg", "quantifier:x", "modal:x", "bound:x") or
# None (dropped: "not only X but also Y" asserts X).
_PHRASES: dict[tuple[str, ...], str | None] = {
    ("no", "more", "than"): "bound:<=",
    ("no", "less", "than"): "bound:>=",
    ("no", "fewer", "than"): "bound:>=",
    ("at", "least"): "bound:>=",
    ("at", "most"): "bound:<=",
    ("up", "to"): "bound:<=",
    ("more", "than"): "bound:>",
    ("less", "than"): "bound:<",
    ("fewer", "than"): "bound:<",
    ("no", "one"): "neg",
    ("no", "longer"): "neg",
    ("not", "only"): None,
    ("not", "just"): None,
    ("a", "few"): "quantifier:some",
    ("a", "lot"): "quantifier:many",
    ("have", "to"): "modal:must",
    ("has", "to"): "modal:must",
    ("had", "to"): "modal:must",
    ("need", "to"): "modal:must",
    ("needs", "to"): "modal:must",
    ("ought", "to"): "modal:should",
}
# Longest first, so "no more than 10" is a bound and not a negation.
_PHRASE_ORDER = sorted(_PHRASES, key=len, reverse=True)
_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_NUMBER_WORDS |= {
    word: 10 * n
    for n, word in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], 2)
}
_NUMBER_WORDS["dozen"] = 12
_SCALES = {"hundred": 100, "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9}
_MULTIPLES = {
    "once": "1x",
    **dict.fromkeys(["twice", "double", "doubles", "doubled", "doubling"], "2x"),
    **dict.fromkeys(["thrice", "triple", "triples", "tripled", "tripling"], "3x"),
    **dict.fromkeys(["half", "halve", "halves", "halved", "halving"], "0.5x"),
}
_TIME_UNITS = frozenset(["second", "minute", "hour", "day", "week", "month", "quarter", "year", "decade"])
_PER_UNIT = {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "quarterly": "quarter"}
_PER_UNIT |= {"yearly": "year", "annually": "year", "annual": "year"}
_NEGATED_MODALS = {"unlikely": "likely", "unable": "can", "impossible": "may"}
_FAR = 99  # words since the last number, when there was none
_BE = frozenset(["is", "are", "was", "were", "be", "been", "being", "get", "gets", "got"])
_CONTRACTIONS = [
    (re.compile(r"\bcan'?not\b|\bcan't\b"), "can not"),
    (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"),
    (re.compile(r"n't\b"), " not"),
    (re.compile(r"'ll\b"), " will"),
    (re.compile(r"'d\b"), " would"),
]
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|%|[a-z]+(?:'[a-z]+)*")
_LIST_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+")


@dataclass(frozen=True)
class Claim:
    """The parts of a statement that matching compares; content words in their order."""

    negated: bool
    quantifiers: frozenset[str]
    modals: frozenset[str]
    numbers: frozenset[str]
    content: tuple[str, ...]
    passive: bool

    def markers(self) -> tuple:
        return (self.quantifiers, self.modals, self.numbers)


def _tokens(text: str) -> list[str]:
    text = _LIST_MARKER.sub("", text.lower().replace("’", "'").replace("‘", "'"))
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return [token.split("'")[0] for token in _TOKEN.findall(text)]  # fund's -> fund, i'm -> i


def _stem(word: str) -> str:
    """A light fold of inflection (plural, -ing, -ed, -ly, a final e), never a change of word."""
    if not word.isalpha() or len(word) <= 2:
        return word
    if word.endswith(("ies", "ied")) and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    elif word.endswith("ing") and re.search(r"[aeiouy]", word[:-3]):
        word = _undouble(word[:-3])
    elif word.endswith("ed") and not word.endswith("eed") and re.search(r"[aeiouy]", word[:-2]):
        word = _undouble(word[:-2])
    elif word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    return word[:-1] if word.endswith("e") and len(word) > 2 else word


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") else word


def _undouble(stem: str) -> str:
    return stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz" else stem


def _number(tokens: list[str], i: int) -> tuple[str, int] | None:
    """The number starting at tokens[i] (digits or words, with a scale, %, or "times"), and the
    index after it; None when tokens[i] does not start one."""
    token = tokens[i]
    if token in _MULTIPLES:
        return _MULTIPLES[token], i + 1
    if token[0].isdigit():
        value, i = float(token.replace(",", "")), i + 1
    elif token in _NUMBER_WORDS:
        value, i = 0.0, i
        while i < len(tokens) and tokens[i] in _NUMBER_WORDS:
            value, i = value + _NUMBER_WORDS[tokens[i]], i + 1
    else:
        return None
    suffix = ""
    while i < len(tokens):
        word = tokens[i]
        if word in _SCALES:
            value, i = value * _SCALES[word], i + 1
        elif word in ("%", "percent", "percentage"):
            suffix, i = "%", i + 1
        elif tokens[i : i + 2] == ["per", "cent"]:
            suffix, i = "%", i + 2
        elif word in ("times", "x"):
            suffix, i = "x", i + 1
        else:
            break
    return (str(int(value)) if value == int(value) else f"{value:.6g}") + suffix, i


@functools.lru_cache(maxsize=4096)  # each ledger point is compared with every new one, each round
def claim_of(text: str) -> Claim:
    """What a statement claims, read once: see the module's docstring."""
    tokens = _tokens(text)
    negations = 0
    quantifiers: set[str] = set()
    modals: set[str] = set()
    numbers: set[str] = set()
    content: list[str] = []
    bound, since_number = "", _FAR  # since_number: words read since the last number
    i = 0
    while i < len(tokens):
        token = tokens[i]
        phrase = next((words for words in _PHRASE_ORDER if tuple(tokens[i : i + len(words)]) == words), None)
        if phrase is not None:
            kind, _, value = (_PHRASES[phrase] or "").partition(":")
            i += len(phrase)
            if kind == "neg":
                negations += 1
            elif kind == "quantifier":
                quantifiers.add(value)
            elif kind == "modal":
                modals.add(value)
            elif kind == "bound" and i < len(tokens) and _number(tokens, i) is not None:
                bound = value
            elif kind == "bound":  # "more than a language": words, not a bound
                content.append("_".join(phrase))
            continue
        unit = _singular(tokens[i + 1]) if i + 1 < len(tokens) else ""
        # A rate: "once a year", "5,000 requests a second" (not "a year ago").
        frequency = token in ("per", "every", "each") or (token in ("a", "an") and since_number <= 2)
        if frequency and unit in _TIME_UNITS:
            numbers.discard("1x")  # once a year = once every year = every year = yearly
            content.append(f"per_{unit}")
            i, since_number = i + 2, _FAR
            continue
        number = _number(tokens, i)
        if number is not None:
            value, i = number
            numbers.add(bound + value)
            bound, since_number = "", 0
            continue
        bound, since_number = "", since_number + 1
        i += 1
        if token in _NEGATORS:
            negations += 1
        elif token in _QUANTIFIERS:
            quantifiers.add(_QUANTIFIERS[token])
        elif token in _MODALS:
            modals.add(_MODALS[token])
        elif token in _NEGATED_MODALS:
            negations, modals = negations + 1, modals | {_NEGATED_MODALS[token]}
        elif token in _PER_UNIT:
            numbers.discard("1x")
            content.append(f"per_{_PER_UNIT[token]}")
        elif token not in _FILLER and token not in ("s", "%"):
            content.append(_stem(token))
    passive = any(
        token in _BE and "by" in tokens[j + 2 : j + 5] for j, token in enumerate(tokens)
    )  # "managers are beaten by index funds"
    return Claim(
        negated=negations % 2 == 1,
        quantifiers=frozenset(quantifiers),
        modals=frozenset(modals),
        numbers=frozenset(numbers),
        content=tuple(content),
        passive=passive,
    )


def _same_word(a: str, b: str) -> bool:
    """Two folded words that are one word: a participle in -en/-n (beaten, shown), or a British
    -ise/-our spelling."""
    short, long = sorted((a, b), key=len)
    if len(short) >= 3 and long in (short + "en", short + "n"):
        return True
    return len(short) >= 5 and _spelling(a) == _spelling(b)


def _spelling(word: str) -> str:
    return re.sub(r"our$", "or", re.sub(r"is(ation)?$", r"iz\1", word))


def _aligned(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...] | None:
    """``b``'s content words in ``a``'s spelling when the two hold the same words; else None."""
    only_a, only_b = set(a) - set(b), set(b) - set(a)
    spelled: dict[str, str] = {}
    for word in only_b:
        partner = next((other for other in only_a if _same_word(word, other)), None)
        if partner is None:
            return None
        spelled[word] = partner
        only_a.discard(partner)
    return tuple(spelled.get(word, word) for word in b) if not only_a else None


def _roles_swapped(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The words on either side of a shared word trade places ("index funds beat managers" /
    "managers beat index funds"): who does what to whom differs, unless one side is passive."""
    for pivot in set(a) & set(b):
        ia, ib = a.index(pivot), b.index(pivot)
        before_a, after_a, before_b, after_b = set(a[:ia]), set(a[ia + 1 :]), set(b[:ib]), set(b[ib + 1 :])
        if before_a and after_a and before_b and after_b and before_a <= after_b and before_b <= after_a:
            return True
    return False


def _same_claim_but_polarity(a: Claim, b: Claim) -> bool:
    if not a.content or a.markers() != b.markers():
        return False
    content_b = _aligned(a.content, b.content)
    if content_b is None:
        return False
    return _roles_swapped(a.content, content_b) == (a.passive != b.passive)


def same_point(a: str, b: str) -> bool:
    """Whether two statements say the same thing: same polarity, quantifiers, numbers and modals,
    the same content words (up to inflection) and the same roles."""
    if _tokens(a) == _tokens(b):
        return True
    claim_a, claim_b = claim_of(a), claim_of(b)
    return claim_a.negated == claim_b.negated and _same_claim_but_polarity(claim_a, claim_b)


def negates(a: str, b: str) -> bool:
    """Whether one statement is the other with its polarity flipped ("Rust is not safer"), or
    denies it for every case ("every service needs one" / "no service needs one")."""
    claim_a, claim_b = claim_of(a), claim_of(b)
    if claim_a.negated == claim_b.negated:
        return False
    positive, negative = (claim_a, claim_b) if claim_b.negated else (claim_b, claim_a)
    if positive.quantifiers == {"all"} and not negative.quantifiers:
        negative = replace(negative, quantifiers=positive.quantifiers)
    return _same_claim_but_polarity(positive, negative)


_CLAUSE_END = re.compile(r"(?<=[.!?;:,])\s+|\n+")


def states(text: str, statement: str) -> bool:
    """Whether some clause of ``text`` makes ``statement``'s claim: the same polarity, and every
    content word and number of the statement (the clause may say more around it)."""
    claim = claim_of(statement)
    if not claim.content:
        return False
    for clause in _CLAUSE_END.split(text or ""):
        if same_point(clause, statement):
            return True
        said = claim_of(clause)
        words_said = all(
            any(word == other or _same_word(word, other) for other in said.content) for word in claim.content
        )
        if said.negated == claim.negated and claim.numbers <= said.numbers and words_said:
            return True
    return False


# ── the ledger ────────────────────────────────────────────────────────────────────────────────


@dataclass
class Challenge:
    """An assessment that would have flipped an established fact: kept beside it, never applied."""

    round: int
    status: str  # contested | unverifiable | negated (the Critic accepted its negation)
    text: str  # the Critic's wording
    note: str = ""


@dataclass
class Point:
    text: str
    status: str
    note: str
    first_round: int
    last_round: int
    was_contested: bool = False  # contested in some round (a later agreement is a decision)
    from_memory: bool = False  # an established fact recalled from memory, agreed before round 1
    confidence: float | None = None  # the Critic's, 0-1, from its latest assessment of the point
    supersedes: int | None = None  # index of the point this accepted negation replaced
    superseded_by: int | None = None  # index of the accepted negation that replaced this point
    challenges: list[Challenge] = field(default_factory=list)  # only on established facts

    @classmethod
    def from_dict(cls, row: dict) -> Point:
        """A stored point; rows written before confidence, supersession and challenges load too."""
        row = dict(row)
        row["challenges"] = [Challenge(**item) for item in row.get("challenges") or []]
        return cls(**row)


class PointLedger:
    def __init__(self, points: list[Point] | None = None) -> None:
        self.points = list(points or [])

    @classmethod
    def from_dicts(cls, rows: list[dict]) -> PointLedger:
        return cls([Point.from_dict(row) for row in rows])

    def as_dicts(self) -> list[dict]:
        return [asdict(point) for point in self.points]

    def open_points(self) -> list[Point]:
        """Every point still held (a superseded one is not)."""
        return [point for point in self.points if point.status != SUPERSEDED]

    def match(self, text: str) -> Point | None:
        """The open point that says the same thing as ``text``."""
        return next((point for point in self.open_points() if same_point(text, point.text)), None)

    def record(
        self,
        text: str,
        status: str,
        note: str,
        round_number: int,
        confidence: float | None = None,
        proposer_text: str = "",
    ) -> Point:
        """One assessed point: an open point it restates takes the new status; an accepted negation
        of one supersedes it when the proposer (the Analyst) now says the negation itself, and
        otherwise contests it (the Critic "agreeing" with the opposite of what the Analyst still
        holds is a disagreement, not a consensus); anything else is a new point. An established
        fact keeps its status: a flip of it is recorded as a challenge."""
        text = " ".join(text.split())
        point = self.match(text)
        if point is not None and point.from_memory:
            if status != AGREED:
                point.challenges.append(Challenge(round=round_number, status=status, text=text, note=note))
            return point
        if point is not None:
            point.status, point.last_round = status, round_number
            point.note = note or point.note
            point.confidence = confidence if confidence is not None else point.confidence
            point.was_contested = point.was_contested or status == CONTESTED
            return point
        opposite = next((old for old in self.open_points() if negates(text, old.text)), None)
        if opposite is not None and status == AGREED and opposite.from_memory:
            opposite.challenges.append(Challenge(round=round_number, status=NEGATED, text=text, note=note))
            return opposite
        if opposite is not None and status == AGREED and not states(proposer_text, text):
            opposite.status, opposite.last_round, opposite.was_contested = CONTESTED, round_number, True
            opposite.note = f"The Critic holds the opposite: “{text}”. {note}".strip()
            opposite.confidence = confidence if confidence is not None else opposite.confidence
            return opposite
        point = Point(
            text=text,
            status=status,
            note=note,
            first_round=round_number,
            last_round=round_number,
            was_contested=status == CONTESTED,
            confidence=confidence,
        )
        self.points.append(point)
        if opposite is not None and status == AGREED:
            point.supersedes = self.points.index(opposite)
            opposite.status, opposite.superseded_by = SUPERSEDED, len(self.points) - 1
            opposite.last_round = round_number
        return point

    def fold(self, assessment, round_number: int, proposer_text: str = "") -> None:
        """An AgreementAssessment (orchestration.schemas) into the ledger; ``proposer_text``: what
        the Analyst said this round (whether it now holds a negation the Critic accepted)."""
        for item in assessment.agreed:
            self.record(item.point, AGREED, item.reasoning, round_number, item.confidence, proposer_text)
        for item in assessment.disagreed:
            self.record(item.point, CONTESTED, item.counter_argument, round_number, item.confidence)
        for item in assessment.unverifiable:
            self.record(item.point, UNVERIFIABLE, item.reason, round_number, item.confidence)

    def with_status(self, status: str) -> list[Point]:
        return [point for point in self.points if point.status == status]

    @property
    def score(self) -> float:
        agreed = len(self.with_status(AGREED))
        counted = agreed + len(self.with_status(CONTESTED)) + len(self.with_status(UNVERIFIABLE))
        return round(agreed / counted * 100, 1) if counted else 0.0

    @property
    def consensus(self) -> bool:
        still_open = self.with_status(CONTESTED) or self.with_status(UNVERIFIABLE)
        return bool(self.with_status(AGREED)) and self.score >= CONSENSUS_SCORE and not still_open


def condensed_summary(ledger: PointLedger, findings: list[str]) -> str:
    """Older messages condensed for the next turn: agreed, contested, unverifiable, decisions
    (points contested first and agreed later), superseded points and findings (one line per older
    message, as given), at most SUMMARY_LIMIT_CHARS."""

    def listed(points) -> str:
        return "; ".join(point.text for point in points) or words.CONDENSED_NONE

    decisions = [point for point in ledger.with_status(AGREED) if point.was_contested]
    summary = words.CONDENSED.format(
        agreed=listed(ledger.with_status(AGREED)),
        contested=listed(ledger.with_status(CONTESTED)),
        unverifiable=listed(ledger.with_status(UNVERIFIABLE)),
        decisions=listed(decisions),
        superseded=listed(ledger.with_status(SUPERSEDED)),
        findings="\n".join(findings),
    )
    return summary if len(summary) <= SUMMARY_LIMIT_CHARS else summary[: SUMMARY_LIMIT_CHARS - 1] + "…"
