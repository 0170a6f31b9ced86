"""What an artifact leaves open between the Architect and the Reviewer: the items under its
open-questions heading, whatever a synthesis model calls it, and nothing when it says so."""

import pytest

from orchestration.modes.collaborate.artifact import open_questions

CASES = [
    (
        "the heading the prompt asks for, a bulleted list",
        "# Shortener\n\n## Storage\n\n- Postgres\n- base62 keys\n\n## Open questions\n\n- Custom aliases?\n- Expiry?",
        ["Custom aliases?", "Expiry?"],
    ),
    (
        "another wording, a numbered list, an introduction and a wrapped item",
        "# Plan\n\n### Unresolved issues\n\nTwo things remain between them:\n\n1. How long to cache redirects\n"
        "2. Whether rate limits apply per user\n   or per API key\n\n## Next steps\n\n- Ship the MVP",
        ["How long to cache redirects", "Whether rate limits apply per user or per API key"],
    ),
    (
        "prose instead of a list: each paragraph is one",
        "# Design\n\n## Where they still disagree\n\nThe Reviewer wants Redis in front of the database; the "
        "Architect thinks it is premature.\n",
        ["The Reviewer wants Redis in front of the database; the Architect thinks it is premature."],
    ),
    (
        "bold heading text and a colon",
        "# Doc\n\n## **Outstanding points:**\n\n* Who pays for storage",
        ["Who pays for storage"],
    ),
    ("the section says there are none", "# Doc\n\n## Open questions\n\nNone.\n", []),
    (
        "a negation in a sentence",
        "# Doc\n\n## Open Questions\n\nNo open questions remain: both roles agree on every point.\n",
        [],
    ),
    ("a list whose only item is none", "# Doc\n\n## Open issues\n\n- None at this stage.\n", []),
    (
        "a decoy inside fenced code",
        "# Doc\n\n```markdown\n## Open questions\n\n- not a real one\n```\n\n## Summary\n\n- done",
        [],
    ),
    (
        "decoy headings that only look alike",
        "# Doc\n\n## Openness of the API\n\n- Public reads\n\n## Open source options\n\n- nginx\n\n## Questions answered\n\n- Why Postgres",
        [],
    ),
    ("no such section at all", "# Doc\n\n## Storage\n\n- Postgres", []),
    ("nothing written", "", []),
    (
        "a deeper heading inside the section stays in it; the next one of its level ends it",
        "# Doc\n\n## Open questions\n\n### Scaling\n\n- Sharding by key?\n\n## Appendix\n\n- a note",
        ["Sharding by key?"],
    ),
]


@pytest.mark.parametrize(("case", "markdown", "expected"), CASES, ids=[case for case, _, _ in CASES])
def test_the_open_questions_of_an_artifact(case, markdown, expected):
    assert open_questions(markdown) == expected
