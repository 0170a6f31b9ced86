"""What a debate recalled, as persona prompt sections: established facts not to re-debate, then
past insights to build on. Part of the stable prompt prefix (orchestration/context.py): the recall
is made once, before the first turn, so the bytes are the same on every call and stay cached."""

from __future__ import annotations

from debates.budget import Section, join
from debates.models import Debate
from memory import prompts as words
from memory.services.recall import persona_recalled_for, recalled_for

FACTS_TOKENS = 260
INSIGHTS_TOKENS = 260
PERSONA_TOKENS = 280


def scope_label(scope: str) -> str:
    """Where an insight was recalled from, when it is the debate's own repository or assignment."""
    return {"repository": words.FROM_THIS_REPOSITORY, "assignment": words.FROM_THIS_ASSIGNMENT}.get(scope, "")


def memory_section(debate: Debate, persona=None) -> str:
    facts, insights, note = recalled_for(debate=debate)
    established = Section(words.FACTS_TITLE, FACTS_TOKENS)
    if facts:
        established.add(words.FACTS_RULE)
        for item in facts:
            if not established.add(f"• {scope_label(item.scope)}{item.insight.text}", max_line_tokens=60):
                break
    earlier = Section(words.INSIGHTS_TITLE, INSIGHTS_TOKENS)
    if insights:
        earlier.add(words.INSIGHTS_RULE)
        for item in insights:
            line = f"• {scope_label(item.scope)}{item.insight.get_kind_display()}: {item.insight.text}"
            if not earlier.add(line, max_line_tokens=60):
                break
    sections = [established, earlier]
    if persona is not None:
        mine = Section(words.PERSONA_TITLE, PERSONA_TOKENS)
        remembered = persona_recalled_for(debate=debate, persona=persona)
        if remembered:
            mine.add(words.PERSONA_RULE)
            for item in remembered:
                if not mine.add(f"• {item.memory.text}", max_line_tokens=80):
                    break
        sections.append(mine)
    return join(sections)
