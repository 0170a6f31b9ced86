"""Keeping every speaker's voice clean while its words stream to the page.

Every speaker, in every mode, is held to the house's forbidden phrases on top of its own
(personas/house.py: ``forbidden_phrases_of``), spoken turns and long-form Markdown alike (a
Collaborate draft, revision or artifact). Text is pushed in batches (every FLUSH_SECONDS), never
one websocket message per token, and the last few characters are held back so a forbidden phrase
can be caught before any of it is shown. If one appears the output is asked for once more, told
which phrases to leave out and which of its sentences carry what it means (``carrying_sentences``:
to be said again in other words, never dropped). If a phrase is still there, it is cut out of its
sentence and what the sentence says is kept (``clean_forbidden``): a sentence that was nothing but
the phrase ("That's a great point, Bram.") goes, one that carries an answer ("It depends on
whether the ramp is funded.") stays without it. Markdown keeps its lines, markers and tables.

A turn is also held to the length of its kind (an opening at most 5 sentences, a reply 3, ...),
with sentences the model repeats dropped: once a turn has said enough, generation stops, and
what goes past the limit is never shown. Strong models rarely need it; small ones loop.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Callable

from debates.models import Message
from debates.services.messages import message_text_save
from debates.turns import TURN_KINDS
from gateways.words import STOP_WORDS
from orchestration.prompts import PASS_WORD

FLUSH_SECONDS = 0.3
# A model repeating itself this many sentences past the limit without saying anything new is stopped.
REPETITION_SLACK = 3

# A sentence ends at . ! ? or … (plus closing quotes or brackets) followed by white space; a line
# break ends one too (small models write lists of unpunctuated lines).
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"'”’)\]]*[ \t]*\n\s*|(?<=[.!?…])[\"'”’)\]]*\s+|[ \t]*\n\s*")


def _sentences(text: str) -> tuple[list[tuple[str, str]], str]:
    """The complete sentences of ``text``, each with the separator that followed it (a space or a
    line break), and the unfinished rest."""
    parts, start = [], 0
    for match in _SENTENCE_BREAK.finditer(text):
        sentence = text[start : match.end()].strip()
        if sentence:
            parts.append((sentence, "\n" if "\n" in match.group() else " "))
        start = match.end()
    return parts, text[start:]


def _distinct(sentences: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen, kept = set(), []
    for sentence, separator in sentences:
        key = re.sub(r"\W+", " ", sentence).strip().lower()
        if key and key not in seen:
            seen.add(key)
            kept.append((sentence, separator))
    return kept


# A word said four or more times in a row is a loop, not emphasis.
_WORD_LOOP = re.compile(r"\b(\w+)(?:[\s,]+\1\b){3,}", re.IGNORECASE)


def shape_turn(text: str, limit: int, *, final: bool = True) -> str:
    """At most ``limit`` distinct sentences of ``text``, repeats dropped, line breaks kept,
    word loops collapsed.

    While streaming (``final=False``) the unfinished last sentence is kept when there is room
    for it; in the final text it counts as a sentence of its own.
    """
    complete, rest = _sentences(_WORD_LOOP.sub(r"\1", text))
    if final and rest.strip():
        complete, rest = [*complete, (rest.strip(), " ")], ""
    kept = _distinct(complete)[:limit]
    shaped = "".join(sentence + separator for sentence, separator in kept)
    if rest.strip() and len(kept) < limit:
        shaped += rest.lstrip()
    return shaped.strip() if final else shaped.rstrip()


def said_enough(text: str, limit: int) -> bool:
    """True once ``text`` holds ``limit`` distinct complete sentences, or keeps repeating itself."""
    complete, _ = _sentences(text)
    looping = _WORD_LOOP.search(text[-200:]) is not None
    return looping or len(_distinct(complete)) >= limit or len(complete) >= limit + REPETITION_SLACK


def find_forbidden(text: str, phrases: list[str]) -> list[str]:
    lowered = _fold(text)
    return [phrase for phrase in phrases if phrase.strip() and _phrase_pattern(phrase).search(lowered)]


def _fold(text: str) -> str:
    # Curly quotes and case must not let "That’s a great point" slip past "That's a great point".
    return re.sub(r"\s+", " ", text.replace("’", "'").replace("‘", "'")).lower()


@functools.lru_cache(maxsize=512)
def _phrase_pattern(phrase: str) -> re.Pattern:
    """The phrase as whole words: "That's a great point" is not in "that's a great pointer"."""
    return re.compile(r"(?<!\w)" + re.escape(_fold(phrase).strip()) + r"(?!\w)")


def quoted(phrases: list[str]) -> str:
    """Phrases as a prompt names them: "A"; "B"."""
    return "; ".join(f'"{phrase}"' for phrase in phrases)


# Inside one line, a sentence ends at . ! ? or … (and what closes it: quotes, brackets, Markdown's
# ** or _) before white space.
_IN_LINE_BREAK = re.compile(r"(?<=[.!?…])[\"'”’)\]*_]*[ \t]+")
# What a cut clause may take after its phrase ("That's a great point about SMS fallback, ..."):
# a few words up to the clause's punctuation.
_CLAUSE_TAIL = re.compile(r"^([^,;:.!?—–\n]*)([,;:—–]|[.!?…]|$)")
CLAUSE_TAIL_WORDS = 6
_JOINING = re.compile(r"^(?:and|but|so|yet|though)\b[,]?\s*", re.IGNORECASE)
_MARKERS = re.compile(r"^[\s>#|*_+-]*(?:\d{1,2}[.)]\s+)?[\s*_]*$")  # a line's Markdown lead, nothing else
_MARKERS_LEAD = re.compile(r"^[\s>#|*_+-]*(?:\d{1,2}[.)]\s+)?")
# A house phrase whose cut would break its sentence, said otherwise where it is followed by "on":
# "It depends on whether the ramp is funded." -> "It turns on whether the ramp is funded."
SAID_OTHERWISE = {"it depends": "it turns"}
_SAID_OTHERWISE_AFTER = re.compile(r"^\s+(?:on|upon)\b", re.IGNORECASE)
# Words that say nothing of their own once the phrase is gone: fillers, joiners, addresses.
_EMPTY_WORDS = frozenset(
    re.findall(
        r"\S+",
        "and but so yet though well also then still anyway oh okay ok indeed really truly again too sure "
        "honestly everyone all folks friends both you team here there",
    )
)
_WORDS = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")


@functools.lru_cache(maxsize=512)
def _phrase_in_text(phrase: str) -> re.Pattern:
    """The phrase as it may be written: any case, curly or straight quotes, any white space."""
    words = [re.escape(_fold(word)).replace("'", "['’‘]") for word in phrase.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def _carries(text: str, names: list[str] = ()) -> bool:
    """Whether ``text`` says anything beyond fillers, joiners and the participants' names."""
    named = {word.lower() for name in names for word in _WORDS.findall(name)}
    return any(w.lower() not in _EMPTY_WORDS and w.lower() not in named for w in _WORDS.findall(text))


def _line_sentences(line: str) -> list[tuple[str, str]]:
    """The sentences of one line, each with the white space after it (joined back, the line)."""
    parts, start = [], 0
    for match in _IN_LINE_BREAK.finditer(line):
        closers = match.group().rstrip(" \t")
        parts.append((line[start : match.start()] + closers, match.group()[len(closers) :]))
        start = match.end()
    if line[start:] or not parts:
        parts.append((line[start:], ""))
    return parts


def _at_start(before: str) -> bool:
    """Whether what comes before a cut is only the start of a sentence: nothing, or a line's
    Markdown lead ("- ", "## ", "| ", "1. ")."""
    return not before.strip() or bool(_MARKERS.match(before)) or before.rstrip().endswith("|")


def _cut(sentence: str, phrases: list[str]) -> str:
    """``sentence`` without its forbidden phrases: each taken out with the few words of its clause
    that belong to it ("... about SMS fallback,"), a joining "and"/"but" after it dropped, the
    rest capitalised where it now starts the sentence; a house phrase said otherwise where a cut
    would break the sentence (SAID_OTHERWISE)."""
    for _ in range(8):  # a sentence holds a phrase or two, never more worth the loop
        match = next((m for p in phrases if p.strip() and (m := _phrase_in_text(p.strip()).search(sentence))), None)
        if match is None:
            return sentence
        start, end = match.span()
        instead = SAID_OTHERWISE.get(_fold(match.group()).strip())
        if instead and _SAID_OTHERWISE_AFTER.match(sentence[end:]):
            said = instead[0].upper() + instead[1:] if match.group()[0].isupper() else instead
            sentence = sentence[:start] + said + sentence[end:]
            continue
        tail = _CLAUSE_TAIL.match(sentence[end:])
        joined = False
        if tail and len(tail.group(1).split()) <= CLAUSE_TAIL_WORDS:
            end += len(tail.group(1))
            if tail.group(2) and tail.group(2) in ",;:—–":
                end, joined = end + len(tail.group(2)), True
        before, after = sentence[:start], sentence[end:].lstrip()
        if joined or _at_start(before):
            after = _JOINING.sub("", after, count=1)
        if _at_start(before):
            after = after[:1].upper() + after[1:]
            sentence = before + after
        elif not _WORDS.search(after) and _dangles(before):
            return ""  # "My answer is [phrase]." said nothing but the phrase
        elif not after:
            sentence = before.rstrip().rstrip(",;:—–").rstrip()  # "Savers know it, [phrase]"
        else:
            sentence = before.rstrip() + (" " if after[0] not in ".,;:!?…" else "") + after
    return sentence


def _dangles(before: str) -> bool:
    """Whether what comes before a phrase that ended its sentence waits for it ("My answer is",
    "Bram keeps telling me \""): its last word a function word (an answer's yes or no aside)."""
    if before.rstrip().endswith((",", ";", ":", "—", "–")):  # an aside after its clause: "Savers know it, [phrase]"
        return False
    words = _WORDS.findall(before)
    return bool(words) and words[-1].lower() in STOP_WORDS and words[-1].lower() not in ("yes", "no", "not")


def clean_forbidden(text: str, phrases: list[str], names: list[str] = ()) -> str:
    """``text`` without its forbidden phrases, what each sentence says kept (see ``_cut``): a
    sentence left with nothing of its own (only fillers, an address, punctuation) goes, and so
    does a line left with nothing but its Markdown lead; every other line, and its layout, stays.
    "" when nothing of its own was left."""
    phrases = [phrase for phrase in phrases if phrase.strip()]
    if not phrases or not find_forbidden(text, phrases):
        return text.strip()
    lines = []
    for line in text.split("\n"):
        if not find_forbidden(line, phrases):
            lines.append(line)
            continue
        kept = []
        for sentence, separator in _line_sentences(line):
            if find_forbidden(sentence, phrases):
                sentence = _cut(sentence, phrases)
                if not _carries(sentence, names):
                    continue
            kept.append(sentence + separator)
        cleaned = "".join(kept).rstrip()
        if _carries(cleaned, names):
            lines.append(cleaned)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def carrying_sentences(text: str, phrases: list[str], names: list[str] = ()) -> list[str]:
    """The sentences that hold a forbidden phrase and say something beyond it: what a second draft
    must say again in other words (the others can simply go)."""
    phrases = [phrase for phrase in phrases if phrase.strip()]
    found = []
    for line in text.split("\n"):
        for sentence, _ in _line_sentences(line):
            if find_forbidden(sentence, phrases) and _carries(_cut(sentence, phrases), names):
                found.append(_MARKERS_LEAD.sub("", sentence).strip())
    return found


_ENDS_A_SENTENCE = re.compile(r"[.!?…][\"'”’)\]]*$")
# A numbered point's marker left alone at the end ("... database.\n2."): not a sentence.
_LIST_MARKER = re.compile(r"(?:^|\n|(?<=[.!?…])[ \t])[ \t]*\d{1,2}[.)]$")


def end_at_whole_sentence(text: str) -> str:
    """A reply cut off at the token limit, ended where its last whole sentence (or line) ends, its
    layout kept. With no whole sentence, it ends at its last whole word, with an ellipsis: never
    mid-word."""
    if _ENDS_A_SENTENCE.search(text.rstrip()):
        return text.strip()
    ends = [match.end() for match in _SENTENCE_BREAK.finditer(text) if text[: match.start()].strip()]
    if ends:
        return _LIST_MARKER.sub("", text[: ends[-1]].rstrip()).strip()
    words = text.split()
    if len(words) < 2:
        return ""
    return " ".join(words[:-1]).rstrip(",;:—–-") + "…"


# ── prompt furniture ────────────────────────────────────────────────────────────────────────────
# Small models echo the scaffolding of their context (orchestration/context.py) as if it were
# speech: section headers, "Topic: ...", the participant list with its "(you)" marker, open
# disputes as "• A vs B [Active]", a turn's label as "—[Closing statement]". None of it is the
# persona speaking, so it is removed before a turn is shown or stored.
# tests/orchestrator/test_prompt_furniture.py checks every line a real context holds is caught here.
_HEADER = re.compile(r"^[\s#*>_-]*(?:──|--|==)?\s*[A-Z][A-Z0-9'’ -]{3,}(?:──|--|==|:)?[\s*_]*$")
_CONTEXT_LINE = re.compile(
    r"^[\s#*>_-]*(?:Topic|Decided on|Participants|Aspects to come|Current aspect \(\d+ of \d+\)|Proposal by [^:]+|"
    r"Earlier rounds|You've argued|You've conceded|Your position moved|Challenges you haven't answered|"
    r"Evidence you've cited|They've argued|They've conceded|Challenges they haven't answered|On this aspect|"
    r"cited|still owes an answer to|agrees with you on|disagrees with you on)\s*:",
    re.IGNORECASE,
)
# Open disputes ("• A vs B [Active]") and cards ("• Crux found: ..."); a persona's own bullet stays.
_DISPUTE_LINE = re.compile(
    r"\[(?:active|in a crux room|resolved|abandoned)\]\s*$|^\s*[-*•]?\s*crux found:", re.IGNORECASE
)
_TURN_LABEL = re.compile(
    r"\s*[—–-]*\s*\[(?:opening|closing|key argument|reply|dismissal|entry|exchange)(?: statement)?\]\s*",
    re.IGNORECASE,
)
_YOU_MARKER = re.compile(r"\s*\(you\)", re.IGNORECASE)
_ROOM_FRAME = re.compile(r"^You and .+ are here to get to the bottom of", re.IGNORECASE)


def _instruction_start(instruction: str) -> re.Pattern:
    """The first clause of a turn instruction, its {placeholders} matching anything."""
    clause = re.split(r"[:.]", instruction, maxsplit=1)[0]
    parts = re.split(r"\{\w+\}", clause)
    return re.compile(r"^[\s*_>-]*" + ".+?".join(re.escape(part) for part in parts), re.IGNORECASE)


_INSTRUCTIONS = [_instruction_start(row.instruction) for row in TURN_KINDS.values()]


# The prompt's data lines (gateways/llm/prompt_lines.py): a transcript line ("[turn 4] Bram Macro: ...")
# and a participant's item line ("[bram-macro] Bram Macro").
_TRANSCRIPT_LABEL = re.compile(r"^\[turn \d+\]\s*")
_ITEM_LABEL = re.compile(r"^\[[\w.-]+\]\s*")


def _echoes_a_turn(line: str, names: list[str]) -> bool:
    """A line written as a participant's turn ("Bram Macro: ...", "[turn 4] Bram Macro: ..."),
    transcript style, or a participant's line of the prompt ("[bram-macro] Bram Macro")."""
    lowered = _TRANSCRIPT_LABEL.sub("", line.strip().lstrip("*•- ")).lower()
    if any(lowered.startswith(f"{name.lower()}:") or lowered.startswith(f"{name.lower()}**:") for name in names):
        return True
    if not _ITEM_LABEL.match(lowered):
        return False
    rest = _YOU_MARKER.sub("", _ITEM_LABEL.sub("", lowered)).strip()
    return any(rest == name.lower() for name in names)


def is_furniture(line: str, names: list[str] = ()) -> bool:
    """names: the participants' names (a line opening with one and a colon is a transcript echo;
    the speaker's own leading "Name:" is taken off by ``tidy`` first)."""
    stripped = line.strip()
    if not stripped:
        return False
    return bool(
        _HEADER.match(stripped)
        or _CONTEXT_LINE.match(stripped)
        or _DISPUTE_LINE.search(stripped)
        or (_YOU_MARKER.search(stripped) and "," in stripped)  # the participant list
        or _TURN_LABEL.fullmatch(stripped)
        or _ROOM_FRAME.match(stripped)
        or any(pattern.match(stripped) for pattern in _INSTRUCTIONS)
        or _echoes_a_turn(stripped, names)
    )


def _may_become_furniture(line: str, names: list[str]) -> bool:
    """While streaming: an unfinished first line that could still turn out to be furniture."""
    stripped = line.strip()
    if not stripped:
        return False
    if stripped[0] in "─-=#*•[—–>" or is_furniture(stripped, names):
        return True
    head = stripped.split(":", 1)[0]
    return head.isupper() or any(name.lower().startswith(head.lower()) for name in names)


def context_lines(context: str) -> frozenset[str]:
    """The lines of a turn's context long enough that a turn repeating one verbatim is echoing it."""
    return frozenset(line.strip() for line in context.splitlines() if len(line.strip()) >= 12)


def strip_furniture(
    text: str, names: list[str] = (), *, echoes: frozenset[str] = frozenset(), final: bool = True
) -> str:
    """``text`` without the lines that echo the prompt (headers, context lines, the participant
    list, open-dispute lines, transcript lines, turn instructions, any line of the context given
    verbatim in ``echoes``), turn labels and "(you)" markers removed. names: the participants'
    names. While streaming (``final=False``) an unfinished line that might still be furniture is
    held back."""
    lines = text.split("\n")
    unfinished = "" if final else lines.pop()
    kept = [line for line in lines if not is_furniture(line, names) and line.strip() not in echoes]
    # Personas speak in prose, so a line after a line break is held until it is complete.
    if unfinished and not lines and not _may_become_furniture(unfinished, names):
        kept.append(unfinished)
    elif not final:
        kept.append("")  # keeps the line break a held-back line starts after
    cleaned = "\n".join(kept)
    cleaned = _TURN_LABEL.sub(" ", cleaned)
    cleaned = _YOU_MARKER.sub("", cleaned)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    cleaned = re.sub(r"\n{3,}", "\n\n", cleaned)
    return cleaned.strip() if final else cleaned.lstrip()


def is_pass(text: str) -> bool:
    return re.sub(r"[\W_]+", "", text).upper() == PASS_WORD


def tidy(text: str, speaker_name: str) -> str:
    """Strip a leading "Name:" the model sometimes adds, and surrounding whitespace."""
    text = text.strip()
    prefix = re.compile(rf"^\**{re.escape(speaker_name)}\**\s*:\s*", re.IGNORECASE)
    return prefix.sub("", text).strip()


class StreamingTurn:
    """The on_text callback of one streamed turn.

    The Message row is created lazily, at the first visible text, so a turn answered with a bare
    PASS never shows up in the chat. ``begin`` creates it (and its event); an existing row (a turn
    interrupted by a dead worker) can be passed in to be streamed into again.
    """

    def __init__(
        self,
        *,
        begin: Callable[[], Message],
        forbidden: list[str],
        message: Message | None = None,
        flush_seconds: float = FLUSH_SECONDS,
        sentence_limit: int = 6,
        cancelled: threading.Event | None = None,
        names: list[str] = (),
        echoes: frozenset[str] = frozenset(),
    ) -> None:
        self.begin = begin
        self.names = list(names)  # the participants': a "Name:" line is a transcript echo
        self.echoes = echoes  # the lines of the turn's context
        self.sentence_limit = sentence_limit
        self.cancelled = cancelled
        self.forbidden = [p for p in forbidden if p.strip()]
        self.holdback = max([len(PASS_WORD)] + [len(p) for p in self.forbidden]) - 1
        self.message = message
        self.flush_seconds = flush_seconds
        self.text = ""
        self.pushed = ""
        self.tainted = False
        self.last_flush = time.monotonic()
        if self.message is not None and self.message.text:
            self._push("")  # an interrupted turn starts again from nothing

    def reset(self) -> None:
        self.text = ""
        self.tainted = False
        if self.message is not None:
            self._push("")

    def __call__(self, piece: str) -> bool:
        """Take one streamed piece; True asks the provider to stop (the turn has said enough, or
        the run is over)."""
        if self.cancelled is not None and self.cancelled.is_set():
            return True
        self.text += piece
        if time.monotonic() - self.last_flush >= self.flush_seconds:
            self.flush()
        return self.has_said_enough(self.text)

    def has_said_enough(self, text: str) -> bool:
        """Whether a turn that has said ``text`` so far should stop generating."""
        return said_enough(strip_furniture(text, self.names, echoes=self.echoes, final=False), self.sentence_limit)

    def flush(self) -> None:
        self.last_flush = time.monotonic()
        if self.tainted:
            return
        if find_forbidden(self.text, self.forbidden):
            self.tainted = True
            return
        shown = strip_furniture(
            self.text[: max(0, len(self.text) - self.holdback)], self.names, echoes=self.echoes, final=False
        )
        visible = shape_turn(shown, self.sentence_limit, final=False).rstrip()
        if visible and visible != self.pushed and not is_pass(self.text):
            self._push(visible)

    def ensure_message(self) -> Message:
        if self.message is None:
            self.message = self.begin()
        return self.message

    def _push(self, visible: str) -> None:
        message = self.ensure_message()
        message_text_save(message=message, text=visible)
        self.pushed = visible
