"""The artifact's text as plain functions: what of a synthesis is kept, its title, its stand-in."""

import pytest

from orchestration.modes.collaborate.artifact import artifact_fallback, artifact_markdown, artifact_title

DOC = "# Plan\n\n- one\n- two"


@pytest.mark.parametrize(
    "said",
    [
        DOC,
        f"\n\n{DOC}\n\n",
        f"```markdown\n{DOC}\n```",
        f"```md\n{DOC}\n```\n",
        f"~~~\n{DOC}\n~~~",
        f"Here is the document:\n```markdown\n{DOC}\n```",
        f"Here's the final artifact:\n{DOC}",
    ],
)
def test_the_document_is_kept_without_its_wrapping(said):
    assert artifact_markdown(said) == DOC


def test_a_fence_inside_the_document_is_left_alone():
    doc = "# Plan\n\n```python\nprint(1)\n```\n\nMore."
    assert artifact_markdown(doc) == doc


@pytest.mark.parametrize("said", ["", "   \n", "```markdown\n\n```", None])
def test_nothing_usable_is_empty(said):
    assert artifact_markdown(said) == ""


def test_the_title_is_the_first_heading_or_the_brief():
    assert artifact_title("intro\n\n## **Storage** plan ##\n\n# Later", "brief") == "Storage plan"
    assert artifact_title("no heading here", "  A  brief\non two lines ") == "A brief on two lines"
    assert artifact_title("", "x" * 300) == "x" * 149 + "…"
    assert artifact_title("# ***", "brief") == "Artifact"


def test_the_stand_in_holds_the_brief_and_each_answer_under_its_role():
    text = artifact_fallback("Design\na shortener", [("Architect", "A's answer\n"), ("Reviewer", "  ")])
    assert text == (
        "# Design a shortener\n\n_The synthesis could not be written; the two revised answers follow._\n\n"
        "## Architect\n\nA's answer\n\n## Reviewer\n\n_(The Reviewer wrote nothing.)_"
    )
