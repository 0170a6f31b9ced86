"""What a debate recalled, as persona prompt sections: established facts not to re-debate, then
past insights to build on. Part of the stable prompt prefix (orchestration/context.py): the recall
is made once, before the first turn, so the bytes are the same on every call and stay cached."""

from __future__ import annotations

from debates.budget import Section, join
from debates.models import Debate
from memory.services.recall import persona_recalled_for, recalled_for

FACTS_TOKENS = 260
INSIGHTS_TOKENS = 260
FACTS_TITLE = "ESTABLISHED FACTS"
FACTS_RULE = (
    "Everyone agreed on these in the owner's earlier debates. Take them as settled: build on them, "
    "do not re-debate them."
)
INSIGHTS_TITLE = "FROM EARLIER DEBATES"
INSIGHTS_RULE = "What earlier debates on related questions found. Use what helps; it is not settled."
PERSONA_TOKENS = 280
PERSONA_TITLE = "YOUR EARLIER DEBATES"
PERSONA_RULE = "What you argued, held or conceded before. Stay consistent with it, or say why you changed."


OWN_SCOPE = {"repository": "(this repository) ", "assignment": "(this assignment) "}


def memory_section(debate: Debate, persona=None) -> str:
    facts, insights, note = recalled_for(debate=debate)
    established = Section(FACTS_TITLE, FACTS_TOKENS)
    if facts:
        established.add(FACTS_RULE)
        for item in facts:
            if not established.add(f"• {OWN_SCOPE.get(item.scope, '')}{item.insight.text}", max_line_tokens=60):
                break
    earlier = Section(INSIGHTS_TITLE, INSIGHTS_TOKENS)
    if insights:
        earlier.add(INSIGHTS_RULE)
        for item in insights:
            line = f"• {OWN_SCOPE.get(item.scope, '')}{item.insight.get_kind_display()}: {item.insight.text}"
            if not earlier.add(line, max_line_tokens=60):
                break
    sections = [established, earlier]
    if persona is not None:
        mine = Section(PERSONA_TITLE, PERSONA_TOKENS)
        remembered = persona_recalled_for(debate=debate, persona=persona)
        if remembered:
            mine.add(PERSONA_RULE)
            for item in remembered:
                if not mine.add(f"• {item.memory.text}", max_line_tokens=80):
                    break
        sections.append(mine)
    return join(sections)
