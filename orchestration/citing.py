"""A persona's own writing in its turns: the corpus passages its context offers, and the ones a
finished turn leaned on (issue 13; the blackboard design's phase 5, "evidence from the persona's
corpus during debate").

The offer is a context section, one line per passage: ``[C1] (essays/gold.md) Gold pays no
yield...``. When the turn is done, the section is read back out of the very context the turn was
given and each line is matched to a chunk of this persona's corpus in the database, so a citation
can only ever name a passage that was offered, and only one of the persona's own. Which of them
the turn leaned on is personas.corpus.citations' rule: a tag it was given, or a verbatim run of
words. Retrieval or parsing trouble costs the citation, never the turn.
"""

from __future__ import annotations

import logging
import re

from django.conf import settings

from debates.budget import Section
from debates.payloads import Citation
from gateways.llm.prompt_lines import item_line
from gateways.llm.types import CallTag
from orchestration import prompts as words
from personas.corpus.citations import citations_in, strip_tags
from personas.corpus.models import CorpusChunk
from personas.corpus.retrieval import corpus_passages_relevant

logger = logging.getLogger(__name__)

EXCERPT_CHARS = 300  # of the chunk, recorded with the citation
_LINE = re.compile(r"^\[(C\d{1,3})\] \((.+)\) (.+)$")


def _flat(text: str) -> str:
    return " ".join(text.split())


def own_writing_section(*, debate, persona, query: str) -> Section:
    """The passages of ``persona``'s corpus most relevant to ``query`` (empty without a corpus)."""
    section = Section(words.OWN_WRITING_TITLE, settings.FAULTLINE_CORPUS_TOKENS + 60)
    found = corpus_passages_relevant(
        persona=persona, query=query, tag=CallTag(debate_id=debate.id, persona=persona.persona_id, phase="corpus")
    )
    if not found.passages:
        return section
    section.add(words.OWN_WRITING_RULE)
    for passage in found.passages:
        section.add(item_line(passage.tag, f"({passage.source}) {_flat(passage.text)}"))
    return section


def offered_passages(context: str, persona) -> dict[str, CorpusChunk]:
    """tag -> chunk, for the passages the ``context`` offered: its own-writing section read back
    and each line matched to a chunk of ``persona``'s corpus (a line that matches none is dropped)."""
    header = Section(words.OWN_WRITING_TITLE, 0).header
    lines = context.split("\n")
    # Ours is the last such section: transcripts (where a message could imitate one) come before
    # it in every phase. Even an imitation could only name this persona's own chunks.
    starts = [
        i
        for i, line in enumerate(lines[:-1])
        if line == header and lines[i + 1] == words.OWN_WRITING_RULE and (i == 0 or not lines[i - 1].strip())
    ]
    if not starts:
        return {}
    offered = {}
    for line in lines[starts[-1] + 2 :]:
        if not line.strip() or line.startswith("── "):
            break
        if match := _LINE.match(line):
            offered[match.group(1)] = (match.group(2), match.group(3))
    if not offered:
        return {}
    chunks = CorpusChunk.objects.filter(
        persona=persona, document__source__in={source for source, _ in offered.values()}
    ).select_related("document")
    by_source: dict[str, list[CorpusChunk]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk.document.source, []).append(chunk)
    matched = {}
    for tag, (source, shown) in offered.items():
        shown = shown.removesuffix("…").strip()
        chunk = next((c for c in by_source.get(source, []) if _flat(c.text).startswith(shown)), None)
        if chunk is not None:
            matched[tag] = chunk
    return matched


def turn_citations(*, context: str, persona, text: str) -> tuple[str, list[Citation]]:
    """(the turn's text without its [Cn] tags, the citations it makes). Never raises."""
    try:
        offered = offered_passages(context, persona)
        cited = citations_in(text, offered, passage_text=lambda chunk: chunk.text) if offered else []
    except Exception as exc:  # a citation is a help, never a reason for a turn to fail
        logger.warning("Reading the citations of a turn by %s failed; it is kept without: %s", persona, exc)
        return strip_tags(text), []
    tags = {chunk.id: tag for tag, chunk in offered.items()}
    return strip_tags(text), [
        Citation(tag=tags[chunk.id], chunk_id=chunk.id, source=chunk.document.source, excerpt=_excerpt(chunk.text))
        for chunk in cited
    ]


def _excerpt(text: str) -> str:
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[:EXCERPT_CHARS]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
