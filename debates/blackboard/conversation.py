"""Proposals, reactions and decisions read from what the personas actually said (seeds/
conversation-memory.md). Pure Python: text in, plain dicts out.

Whether somebody accepted a proposal decides what the page reports as a decision. A capable
speaker accepts in words of their own ("Seven days at a time, with money for being reachable:
I'm on board"), so the ledger update reads it: it cites the proposal by the id it was shown
(``[X1]``, checked against the proposals held) and says how the message reacts to it. That
reading stands only with the words' consent: where the speaker's own words hedge it (a
condition: "in principle", "if", "once we've seen"), or read the other way ("I won't sign up to
that plan" read as support), the reaction is undetermined: nothing is claimed either way. Without
a cited id the words alone decide, as they always did: an explicit acceptance that refers to the
proposal counts as support; a hedge leaves it undetermined; a refusal ("I don't accept") is
opposition. Either way a reaction whose verb takes a clause of its own ("I don't accept that the
pager is the whole problem") is about that clause, not about the proposal on the table. A
decision is recorded only when every participant supports a proposal; anything less stays
active, and nothing is claimed.

A proposal dict: {"id", "by", "proposal", "turn", "status", "reactions": {name: reaction}}
with status active | accepted | rejected and reaction support | oppose | undetermined.
"""

from __future__ import annotations

import re

SUPPORT, OPPOSE, UNDETERMINED = "support", "oppose", "undetermined"
ACTIVE, ACCEPTED, REJECTED = "active", "accepted", "rejected"
MAX_PROPOSALS = 12  # older settled ones make way; an active one is never dropped for a newer one
MIN_PROPOSAL_WORDS = 3

_I = r"\bi(?:'d|\s+(?:would|therefore|now|hereby|really|formally|just))*\s+"
_PROPOSAL = [
    re.compile(_I + r"(?:propose|suggest|recommend)(?:\s+that)?\s+(?!you\b)(?P<c>.+)", re.I),
    re.compile(r"\bmy (?:proposal|suggestion|compromise|offer) (?:is|would be)(?:\s+that|\s+to|:)?\s+(?P<c>.+)", re.I),
    re.compile(r"\b(?:here is|here's) (?:a|my) (?:proposal|compromise|suggestion)\s*[:,-]?\s*(?P<c>.+)", re.I),
    re.compile(r"\bwhat if we\s+(?P<c>.+)", re.I),
    re.compile(r"\bwhy don't we\s+(?P<c>.+)", re.I),
    re.compile(r"\bhow about we\s+(?P<c>.+)", re.I),
    re.compile(r"\blet's consider\s+(?P<c>.+)", re.I),
    re.compile(r"\[proposal\]\s*(?P<c>.+)", re.I),
]
# A proposal cue under a hypothetical or a refusal is not a proposal ("if I suggested...",
# "I don't propose...", "I never suggested...").
_NOT_PROPOSING = re.compile(
    r"\b(?:if|unless|whether|had|never|not|don't|do not|didn't|wouldn't|won't)\b[^.?!]{0,20}$", re.I
)

_SUPPORT = re.compile(
    r"\bcould(?:n't| not) agree more\b"
    r"|\bi(?:'d|'ll|\s+(?:fully|completely|wholeheartedly|now|can|will|do|happily|gladly|also|would|could))*\s+"
    r"(?:agree|accept|support|endorse|back|second|sign on to|sign up to|go along with)\b"
    r"|^\s*agreed\b|\bcount me in\b|\bi'm (?:on board|in)\b|\bi am on board\b"
    r"|\blet's (?:do it|do that|go with)\b|\b(?:works|fine) (?:for|by) me\b|\bi can live with\b"
    r"|\b(?:it's|that's) a deal\b|^\s*deal\b|\byes to\b|\byou have my (?:support|vote)\b"
    r"|\b(?:sounds|that's|that is) (?:good|right|fair|acceptable)\b",
    re.I,
)
_OPPOSE = re.compile(
    r"\bi(?:\s+(?:strongly|firmly|flatly|still|must|have to|simply))*\s+(?:disagree|reject|oppose|object)\b"
    r"|\bi\s+(?:can't|cannot|can not|won't|will not|don't|do not|didn't|refuse to|could never|will never|"
    r"would never|wouldn't|am not going to|'m not going to)\s+(?:\w+\s+)?"
    r"(?:accept|agree|support|endorse|back|sign|go along)\b"
    r"|\b(?:won't|will not|wouldn't|would not|can't|cannot) work\b|\bcount me out\b|\bno deal\b"
    r"|\bi'm (?:against|not on board|opposed)\b|\bi am (?:against|not on board|opposed)\b|\bnon-starter\b"
    r"|\bout of the question\b|\bnot (?:acceptable|a chance)\b|\bunacceptable\b|\bnever agree\b",
    re.I,
)
_EMPHATIC = re.compile(r"\bcould(?:n't| not) agree more\b", re.I)  # agreement, though it reads as a refusal
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|might|in principle|not sure|unsure|on the fence|tempted|tempting|"
    r"open to|think about|think it over|partly|to some extent|somewhat|depends|if|only if|provided|unless|"
    r"as long as|but|though|although|however|yet|except|some reservations|not yet|i'd|i would|could)\b|\?",
    re.I,
)
# What makes an acceptance read by a model conditional in the speaker's own words (narrower than
# _HEDGE, which qualifies a reaction the words themselves make: "I'd" and "but" are everywhere).
_CONDITION = re.compile(
    r"\b(?:maybe|perhaps|possibly|in principle|not sure|unsure|on the fence|let me think|think it over|"
    r"depends|if|only if|provided|unless|as long as|once we(?:'ve| have)? (?:seen|had|heard)|not yet)\b",
    re.I,
)
# A reaction whose verb takes a clause of its own ("I don't accept that the pager is the whole
# problem", "I agree that inflation erodes savings"): it is about that clause. "That" before a
# proposal noun or a single word ("I won't accept that rotation") points at the proposal instead.
_OWN_CLAUSE = re.compile(
    r"\b(?:accept|agree|support|endorse|back|reject|oppose|dispute|deny|concede|grant)s?\s+that\s+"
    r"(?P<clause>[^.;:!?,]+)",
    re.I,
)
_CLAUSE_VERB = re.compile(
    r"\b(?:is|are|was|were|be|been|has|have|had|will|would|can|could|should|must|do|does|did|"
    r"isn't|aren't|wasn't|won't|can't|doesn't|don't)\b|'s\b",
    re.I,
)
# A sentence that turns a previous acceptance into a qualified one.
_QUALIFIER = re.compile(r"^\s*(?:but|however|that said|still|although|though|then again|except)\b", re.I)
_PROPOSAL_NOUN = re.compile(r"\b(?:proposal|suggestion|idea|plan|compromise|offer|motion)\b", re.I)
# A bare acceptance with nothing after it ("Agreed.", "I accept.", "Let's do it.") points at what
# was just said; one with its own complement ("I agree that inflation is high") may not.
_BARE = re.compile(
    r"^\s*(?:yes,?\s*)?(?:agreed|deal|i (?:fully |completely )?(?:agree|accept|support it|back it|second it|"
    r"accept it|support that|accept that)|let's do (?:it|that)|let's go with (?:it|that)|count me in|"
    r"i'm (?:on board|in)|works for me|fine by me|sounds good|that's a deal|it's a deal)\s*[.!]*\s*$",
    re.I,
)

_STOP_WORDS = (
    "a an the and or of to in on for with by at from as is are be was were it its this that these those we "
    "us our you your i my me they them their he she his her not no so do does did can could should would will "
    "shall may might must have has had than then there here what which who whom how why when all any each "
    "some more most less such only also just very into over under about after before between both"
)
_STOP = frozenset(_STOP_WORDS.split(" "))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", text or "") if s.strip()]


def content_words(text: str) -> set[str]:
    """The words that carry meaning, crudely stemmed (so "taxes" meets "tax", "capping" meets "cap")."""
    words = re.findall(r"[a-z][a-z']+", (text or "").lower())
    return {_stem(w) for w in words if w not in _STOP and len(w) > 2}


def _stem(word: str) -> str:
    word = word.strip("'-")
    for suffix in ("ings", "ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2]:  # capp(ing) -> cap
        word = word[:-1]
    return word


def proposal_in(text: str) -> str | None:
    """The proposal a message puts to the group, in its own words, or None."""
    for sentence in sentences(text):
        for pattern in _PROPOSAL:
            match = pattern.search(sentence)
            if match is None or _NOT_PROPOSING.search(sentence[: match.start()]):
                continue
            content = match.group("c").strip().rstrip(".!?").strip()
            if len(content.split()) < MIN_PROPOSAL_WORDS:
                continue
            return content[:1].upper() + content[1:] + "."
    return None


def sentence_reaction(sentence: str) -> str | None:
    """What one sentence says about a proposal it refers to: support, oppose, undetermined, or
    None when it takes no position."""
    if _EMPHATIC.search(sentence):
        return UNDETERMINED if re.search(r"\b(?:but|if|unless|though)\b", sentence, re.I) else SUPPORT
    if _OPPOSE.search(sentence):
        return OPPOSE
    if _SUPPORT.search(sentence):
        return UNDETERMINED if _HEDGE.search(sentence) else SUPPORT
    return None


def _about_a_clause_of_its_own(sentence: str) -> bool:
    match = _OWN_CLAUSE.search(sentence)
    if match is None:
        return False
    clause = match.group("clause").split()
    if _PROPOSAL_NOUN.match(clause[0]):
        return False  # "that proposal", "that plan": the one on the table
    return len(clause) >= 3 or bool(_CLAUSE_VERB.search(match.group("clause")))


def _refers(sentence: str, proposal: dict, *, turn: int | None, named: bool) -> bool:
    if _about_a_clause_of_its_own(sentence):
        return False
    if named or _PROPOSAL_NOUN.search(sentence):
        return True
    if re.search(rf"\b{re.escape(proposal['by'].split()[0])}'s\b", sentence, re.I):
        return True
    if content_words(proposal["proposal"]) & content_words(sentence):  # it names what was proposed
        return True
    # "Agreed." right after the proposal answers it.
    return bool(_BARE.match(sentence)) and turn is not None and turn - proposal.get("turn", -99) == 1


def reaction_to(text: str, proposal: dict, *, turn: int | None = None, named: bool = False) -> str | None:
    """The speaker's reaction to ``proposal`` in ``text``, or None when they did not react to it.

    ``named``: the message was read (by the proposal's id) as reacting to this proposal, so any
    reaction of its words is to it, but one about a clause of its own. Opposition anywhere wins;
    a hedge or a following "but ..." leaves an acceptance undetermined."""
    found: list[str] = []
    said = sentences(text)
    for index, sentence in enumerate(said):
        reaction = sentence_reaction(sentence)
        if reaction is None or not _refers(sentence, proposal, turn=turn, named=named):
            continue
        if reaction == SUPPORT and any(_QUALIFIER.match(later) for later in said[index + 1 :]):
            reaction = UNDETERMINED
        found.append(reaction)
    if not found:
        return None
    for reaction in (OPPOSE, UNDETERMINED):
        if reaction in found:
            return reaction
    return SUPPORT


def status_of(proposal: dict, participants: list[str]) -> str:
    """accepted: everyone supports it (its proposer by proposing; sticky, a decision was reached);
    rejected: most of the others oppose it; active otherwise."""
    if proposal.get("status") == ACCEPTED:
        return ACCEPTED
    reactions = {**proposal.get("reactions", {}), proposal["by"]: SUPPORT}
    if participants and all(reactions.get(name) == SUPPORT for name in participants):
        return ACCEPTED
    others = [name for name in participants if name != proposal["by"]]
    opposed = sum(1 for name in others if reactions.get(name) == OPPOSE)
    return REJECTED if others and opposed * 2 > len(others) else ACTIVE


def read_with_words(read_as: str | None, said: str | None, text: str) -> str | None:
    """A reaction read by a model (``read_as``), checked against the speaker's own words: ``said``,
    what the words say of the same proposal (reaction_to), and any condition they put. The reading
    stands when the words agree or are silent (and, for support, set no condition); otherwise the
    reaction is undetermined. No reading: the words alone."""
    if read_as is None:
        return said
    if said is not None and said != read_as:
        return UNDETERMINED
    if read_as == SUPPORT and _CONDITION.search(text):
        return UNDETERMINED
    return read_as


def proposals_fold(
    proposals: list[dict],
    *,
    speaker: str,
    text: str,
    turn: int,
    participants: list[str],
    reacting_to: int | None = None,
    read_as: str | None = None,
) -> tuple[list[dict], list[str]]:
    """The proposals after one main-channel message, and the decisions it completed.

    ``participants``: every participant's name. ``reacting_to``: the number of the proposal the
    message was read as reacting to (the id it cited, checked by the caller), and ``read_as``, how
    (support, oppose, undetermined). A cited open proposal of someone else takes the reaction
    (read_with_words); otherwise the speaker's reaction goes on the newest open proposal by
    someone else that the words refer to. Their own new proposal is added."""
    proposals = [dict(p, reactions=dict(p.get("reactions", {}))) for p in proposals]
    decided: list[str] = []
    cited = next(
        (p for p in proposals if p.get("id") == reacting_to and p["by"] != speaker and p.get("status") != ACCEPTED),
        None,
    )
    for proposal in [cited] if cited is not None else reversed(proposals):
        if proposal["by"] == speaker or proposal.get("status") == ACCEPTED:
            continue
        reaction = reaction_to(text, proposal, turn=turn, named=cited is not None)
        if cited is not None:
            reaction = read_with_words(read_as, reaction, text)
        if reaction is None:
            continue
        proposal["reactions"][speaker] = reaction
        proposal["status"] = status_of(proposal, participants)
        if proposal["status"] == ACCEPTED:
            decided.append(proposal["proposal"])
        break
    if (content := proposal_in(text)) and all(p["proposal"].lower() != content.lower() for p in proposals):
        number = max((p.get("id", 0) for p in proposals), default=0) + 1
        proposal = {"id": number, "by": speaker, "proposal": content, "turn": turn, "reactions": {}}
        proposal["status"] = status_of(proposal, participants)
        proposals.append(proposal)
    while len(proposals) > MAX_PROPOSALS:
        settled = next((i for i, p in enumerate(proposals) if p.get("status") != ACTIVE), 0)
        proposals.pop(settled)
    return proposals, decided


def may_touch_proposals(text: str) -> bool:
    """Whether a message could change any proposal (a cheap check before the notes are locked)."""
    return bool(proposal_in(text)) or any(sentence_reaction(s) for s in sentences(text))
