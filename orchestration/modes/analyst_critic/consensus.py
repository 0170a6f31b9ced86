"""The Analyst/Critic point ledger and consensus score (seeds/dual-ai-debate.md, Proflow), judged by
reference (issue 39). Pure Python.

Each round the Critic ends its evaluation with Proflow's Agreement Assessment section; a structured
call reads that section (and the Analyst's answer of the round) against the points still open,
shown by their ids (P1 is the ledger's first point, for good), and answers for every open id what
the round did to it, plus the new points (orchestration/schemas.py AgreementAssessment). ``fold``
applies it, checking every id and every closing:

    held          the Analyst still holds it, the Critic said nothing new: unchanged
    accepted      the Critic accepts what the Analyst holds of it: agreed
    contested     the Critic rejects it: contested
    unverifiable  the Critic cannot check it: unverifiable
    withdrawn     the Analyst drops it: withdrawn (closed)
    refined       the Analyst narrows it into a new wording: the point is refined (closed) and a
                  new point with that wording supersedes it, with the Critic's verdict on it
    negated       the Analyst now holds its opposite: the point is negated (closed) and the
                  negation is a new point that supersedes it, with the Critic's verdict on it
    new points    what the Analyst says this round that is none of the open points, each with
                  the Critic's verdict (agreed, contested, unverifiable)

Rewording never makes a new point: a restated point is its id's. Checked by the code, never taken
on a model's word:
- an id that is not an open point's (unknown, closed, given twice) is dropped, logged and refused;
- a point closes (withdrawn, refined, negated) only on the Analyst's own words of that round: the
  assessment quotes them, and the quote must be in the Analyst's answer of the round, say
  something (MIN_QUOTE_WORDS), not be words of an earlier round, and, for a withdrawal, not be
  the point itself restated. Otherwise the closing is refused whole (the point keeps its status,
  no new wording is stored): a model cannot buy a consensus by closing what it disagrees with;
- a new point in the words of an open one (``same_point``: the same claim, up to inflection,
  order and number forms) is that open point; a new point the Critic accepts that negates an open
  one (``negates``) while the Analyst still holds it contests the open one, never agrees with both;
- an established fact recalled from memory is not re-debated: anything but held or accepted is
  recorded as a challenge to it, and the fact stands.
Silence is not withdrawal: an open point the assessment does not name is held.

    score = agreed / (agreed + contested + unverifiable) * 100, over the points still held
    (refined, withdrawn and negated points have left it); no point held -> 0, the debate goes on.
    consensus: at least one point agreed, none contested or unverifiable (so the score is 100,
    past Proflow's CONSENSUS_SCORE): the Critic accepts everything the Analyst now holds.

Ledgers stored before points were judged by reference load as they are: their "superseded"
points (the negation was agreed) are closed, like refined, withdrawn and negated ones.

Reading a statement (``claim_of``, used by ``same_point`` and ``negates``): its polarity (not, no,
never, n't, without...), quantifiers (all, some, most, few, only...), numbers (10% is not 30%,
"ten" is 10), modal strength and hedges (must, should, can, may, probably...) and its content
words, folded only for inflection (funds/fund, rebalancing/rebalance, beaten/beat). Two statements
are the same point when all of these are equal and the roles are not swapped ("A beats B" is not
"B beats A"; "B is beaten by A" is).
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import asdict, dataclass, field, replace

from orchestration.modes.analyst_critic import prompts as words

logger = logging.getLogger(__name__)

CONSENSUS_SCORE = 85.0
SUMMARY_LIMIT_CHARS = 4_000
MIN_QUOTE_WORDS = 3  # a closing quoted in fewer words says nothing checkable ("I withdraw")
# Still held, and counted in the score:
AGREED, CONTESTED, UNVERIFIABLE = "agreed", "contested", "unverifiable"
COUNTED = (AGREED, CONTESTED, UNVERIFIABLE)
# Closed by the Analyst (issue 39): narrowed into another point, dropped, turned into its opposite.
REFINED, WITHDRAWN, NEGATED = "refined", "withdrawn", "negated"
# Closed in a ledger stored before points were judged by reference: its negation was agreed.
SUPERSEDED = "superseded"
# What an assessment's verdict makes a point (orchestration/schemas.py AgreementAssessment).
VERDICTS = {"accepted": AGREED, "contested": CONTESTED, "unverifiable": UNVERIFIABLE}

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


# ── the Critic's Agreement Assessment ─────────────────────────────────────────────────────────

# The heading of Proflow's section (seeds/dual-ai-debate.md), however it is marked: "## Agreement
# Assessment", "**Agreement assessment:**", "AGREEMENT ASSESSMENT". A protocol the code reads,
# not prompt wording (the Critic's prompt asks for it in its own words).
_SECTION_HEADING = re.compile(r"^[ \t>#*_-]*agreement\s+assessment\b[^\n]*$", re.IGNORECASE | re.MULTILINE)


def assessment_section(evaluation: str) -> str:
    """The Critic's Agreement Assessment: from its heading (the last, if it wrote the heading more
    than once) to the end of its evaluation; "" when it wrote none."""
    found = list(_SECTION_HEADING.finditer(evaluation or ""))
    return evaluation[found[-1].start() :].strip() if found else ""


def without_section(evaluation: str) -> str:
    """The Critic's evaluation before its Agreement Assessment: what the next turns are shown of it
    (the ledger carries the assessment). A turn's context lines are read as echoes of it
    (orchestration/voice.py), so a section shown again would have its headings cut from the
    Critic's next one. The whole text when there is nothing before the section."""
    found = list(_SECTION_HEADING.finditer(evaluation or ""))
    before = evaluation[: found[0].start()].strip() if found else (evaluation or "").strip()
    return before or (evaluation or "").strip()


# ── the Analyst's own words ───────────────────────────────────────────────────────────────────

_MARKUP = re.compile(r"[*_`#>]+")
_LIST_START = re.compile(r"(?m)^\s*(?:\d{1,2}[.)]|[-•])\s+")
_ELLIPSIS = re.compile(r"\.\.\.|…")


def _plain(text: str) -> str:
    """Text as a quote is compared with what was said: case, curly quotes and dashes, Markdown
    emphasis, list markers and spacing folded."""
    text = (text or "").translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-"}))
    text = _LIST_START.sub(" ", _MARKUP.sub(" ", text.lower()))
    return " ".join(text.split())


def _found_in(pieces: list[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        at = text.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def quote_problem(quote: str, said: str, earlier: tuple[str, ...] | list[str] = ()) -> str:
    """Why ``quote`` is not the Analyst's own words of this round (``said``), or "" when it is:
    it must be in ``said`` (a quote shortened with an ellipsis: its pieces in order), hold at
    least MIN_QUOTE_WORDS words, and not be words the Analyst said in an earlier round
    (``earlier``): a closing is something said now."""
    pieces = [piece.strip(" .,;:!?\"'") for piece in _ELLIPSIS.split(_plain(quote))]
    pieces = [piece for piece in pieces if piece]
    if not pieces:
        return "the Analyst's words that do it are not given"
    if sum(len(piece.split()) for piece in pieces) < MIN_QUOTE_WORDS:
        return f"“{quote.strip()}” is too short to say it"
    if not _found_in(pieces, _plain(said)):
        return f"“{quote.strip()}” is not in the Analyst's answer of this round"
    if any(_found_in(pieces, _plain(text)) for text in earlier):
        return f"“{quote.strip()}” was said in an earlier round"
    return ""


# ── the ledger ────────────────────────────────────────────────────────────────────────────────


@dataclass
class Challenge:
    """What would have changed an established fact: kept beside it, never applied."""

    round: int
    status: str  # contested | unverifiable | withdrawn | negated (the opposite, accepted)
    text: str  # the wording the challenge gave (the opposite, the Analyst's words), or the fact's
    note: str = ""


@dataclass
class Point:
    text: str
    status: str
    note: str
    first_round: int
    last_round: int  # the round that last changed it (closed it, for a closed one)
    was_contested: bool = False  # contested in some round, or it replaced a contested point
    from_memory: bool = False  # an established fact recalled from memory, agreed before round 1
    confidence: float | None = None  # the Critic's, 0-1, from its latest assessment of the point
    supersedes: int | None = None  # index of the point this one refined or negated
    superseded_by: int | None = None  # index of the point that refined or negated this one
    challenges: list[Challenge] = field(default_factory=list)  # only on established facts
    quote: str = ""  # the Analyst's words that closed it (withdrawn, refined, negated)

    @property
    def held(self) -> bool:
        return self.status in COUNTED

    @classmethod
    def from_dict(cls, row: dict) -> Point:
        """A stored point; rows written before confidence, supersession, challenges and quotes load too."""
        row = dict(row)
        row["challenges"] = [Challenge(**item) for item in row.get("challenges") or []]
        return cls(**row)


def _one_line(text: str) -> str:
    return " ".join((text or "").split())


class PointLedger:
    def __init__(self, points: list[Point] | None = None) -> None:
        self.points = list(points or [])

    @classmethod
    def from_dicts(cls, rows: list[dict]) -> PointLedger:
        return cls([Point.from_dict(row) for row in rows])

    def as_dicts(self) -> list[dict]:
        return [asdict(point) for point in self.points]

    @staticmethod
    def point_id(index: int) -> str:
        """The id a point goes by in prompts and assessments: P1 is the ledger's first, for good."""
        return f"P{index + 1}"

    def index_of(self, point_id: str) -> int | None:
        """The index of the point ``point_id`` names ("P3", "p3", "[P3]"), None for no point."""
        match = re.fullmatch(r"\[?\s*P(\d{1,4})\s*\]?", (point_id or "").strip(), re.IGNORECASE)
        index = int(match[1]) - 1 if match else -1
        return index if 0 <= index < len(self.points) else None

    def open_indices(self) -> list[int]:
        """The points still held (the ones an assessment names by id), in ledger order."""
        return [index for index, point in enumerate(self.points) if point.held]

    def open_points(self) -> list[Point]:
        return [self.points[index] for index in self.open_indices()]

    def with_status(self, status: str) -> list[Point]:
        return [point for point in self.points if point.status == status]

    # ── one round's assessment ────────────────────────────────────────────────────────────────

    def fold(
        self,
        assessment,
        round_number: int,
        *,
        analyst_text: str = "",
        earlier_analyst_texts: tuple[str, ...] | list[str] = (),
    ) -> list[str]:
        """An AgreementAssessment (orchestration.schemas) into the ledger: see the module's
        docstring. ``analyst_text``: the Analyst's answer of this round; ``earlier_analyst_texts``:
        its answers of the rounds before. Returns what was refused, one line each (logged too)."""
        refused: list[str] = []
        assessable = set(self.open_indices())  # ids a model may name: open when it was asked
        named: set[int] = set()
        for item in assessment.points:
            index = self.index_of(item.id)
            if index is None or index not in assessable:
                refused.append(f"{item.id.strip()}: no open point has this id")
            elif index in named:
                refused.append(f"{item.id.strip()}: named twice, the first kept")
            else:
                named.add(index)
                problem = self._apply(index, item, round_number, analyst_text, tuple(earlier_analyst_texts))
                if problem:
                    refused.append(f"{self.point_id(index)} {item.status}: {problem}")
        for new in assessment.new_points:
            self._add(new, round_number, named)
        for line in refused:
            logger.warning("Round %s assessment refused: %s", round_number, line)
        return refused

    def _apply(self, index: int, item, round_number: int, analyst_text: str, earlier: tuple[str, ...]) -> str:
        """One open point's entry; returns why it was refused, or ""."""
        point = self.points[index]
        if point.from_memory:
            self._challenge(point, item, round_number)
            return ""
        if item.status == "held":
            return ""
        if item.status in VERDICTS:
            self._judge(point, VERDICTS[item.status], item.reason, item.confidence, round_number)
            return ""
        problem = quote_problem(item.quote, analyst_text, earlier)
        if not problem and item.status == "withdrawn" and same_point(item.quote, point.text):
            problem = "the words quoted restate the point: it is held, not dropped"
        if not problem and item.status != "withdrawn" and len(_one_line(item.new_wording)) < 3:
            problem = "no new wording given"
        if problem:
            return problem
        point.quote, point.last_round = _one_line(item.quote), round_number
        if item.status == "withdrawn":
            point.status, point.note = WITHDRAWN, item.reason or point.note
            return ""
        status = VERDICTS.get(item.verdict or "", UNVERIFIABLE)  # the Critic did not say: not verified
        self.points.append(
            Point(
                text=_one_line(item.new_wording),
                status=status,
                note=item.reason,
                first_round=round_number,
                last_round=round_number,
                was_contested=point.was_contested or point.status == CONTESTED or status == CONTESTED,
                confidence=item.confidence,
                supersedes=index,
            )
        )
        point.status = REFINED if item.status == "refined" else NEGATED
        point.superseded_by = len(self.points) - 1
        return ""

    @staticmethod
    def _judge(point: Point, status: str, note: str, confidence: float | None, round_number: int) -> None:
        point.status, point.last_round = status, round_number
        point.note = note or point.note
        point.confidence = confidence if confidence is not None else point.confidence
        point.was_contested = point.was_contested or status == CONTESTED

    def _challenge(self, fact: Point, item, round_number: int) -> None:
        """An established fact is not re-debated: what would change it is kept beside it."""
        if item.status in ("held", "accepted"):
            return
        if item.status in ("contested", "unverifiable"):
            fact.challenges.append(Challenge(round_number, item.status, fact.text, item.reason))
        elif item.status == "withdrawn":
            fact.challenges.append(Challenge(round_number, WITHDRAWN, _one_line(item.quote), item.reason))
        elif item.status == "negated":
            status = NEGATED if item.verdict == "accepted" else CONTESTED
            fact.challenges.append(Challenge(round_number, status, _one_line(item.new_wording), item.reason))
        elif len(_one_line(item.new_wording)) >= 3:  # refined: a narrower claim of its own beside the fact
            status = VERDICTS.get(item.verdict or "", UNVERIFIABLE)
            self.points.append(Point(_one_line(item.new_wording), status, item.reason, round_number, round_number))

    def _add(self, new, round_number: int, named: set[int]) -> None:
        """A new point: the open point it restates, if it is one; never a second copy."""
        text, status = _one_line(new.text), VERDICTS[new.status]
        held = self.open_indices()
        same = next((index for index in held if same_point(text, self.points[index].text)), None)
        if same is not None:
            if same not in named:  # an id's own entry wins over a repeat among the new points
                named.add(same)
                point = self.points[same]
                if point.from_memory and status != AGREED:
                    point.challenges.append(Challenge(round_number, status, text, new.reason))
                elif not point.from_memory:
                    self._judge(point, status, new.reason, new.confidence, round_number)
            return
        opposite = next((index for index in held if negates(text, self.points[index].text)), None)
        if opposite is not None and status == AGREED:
            # The Critic "accepting" the opposite of what the Analyst still holds disagrees with it.
            point = self.points[opposite]
            if point.from_memory:
                point.challenges.append(Challenge(round_number, NEGATED, text, new.reason))
            else:
                self._judge(point, CONTESTED, f"The Critic holds the opposite: “{text}”. {new.reason}".strip(),
                            new.confidence, round_number)  # fmt: skip
            return
        self.points.append(
            Point(
                text=text,
                status=status,
                note=new.reason,
                first_round=round_number,
                last_round=round_number,
                was_contested=status == CONTESTED,
                confidence=new.confidence,
            )
        )

    # ── the score ─────────────────────────────────────────────────────────────────────────────

    @property
    def score(self) -> float:
        agreed = len(self.with_status(AGREED))
        counted = len(self.open_indices())
        return round(agreed / counted * 100, 1) if counted else 0.0

    @property
    def consensus(self) -> bool:
        still_open = self.with_status(CONTESTED) or self.with_status(UNVERIFIABLE)
        return bool(self.with_status(AGREED)) and self.score >= CONSENSUS_SCORE and not still_open


def condensed_summary(ledger: PointLedger, findings: list[str]) -> str:
    """Older messages condensed for the next turn: agreed, contested, unverifiable, decisions
    (points contested first and agreed later), points no longer held (refined, withdrawn,
    negated) and findings (one line per older message, as given), at most SUMMARY_LIMIT_CHARS."""

    def listed(points) -> str:
        return "; ".join(point.text for point in points) or words.CONDENSED_NONE

    decisions = [point for point in ledger.with_status(AGREED) if point.was_contested]
    closed = [point for point in ledger.points if not point.held]
    summary = words.CONDENSED.format(
        agreed=listed(ledger.with_status(AGREED)),
        contested=listed(ledger.with_status(CONTESTED)),
        unverifiable=listed(ledger.with_status(UNVERIFIABLE)),
        decisions=listed(decisions),
        superseded=listed(closed),
        findings="\n".join(findings),
    )
    return summary if len(summary) <= SUMMARY_LIMIT_CHARS else summary[: SUMMARY_LIMIT_CHARS - 1] + "…"
