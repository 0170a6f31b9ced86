"""The prompts of memory, every word of them: how what a debate recalled reads in a persona's
prompt (memory/context.py). Every module-level string here is prompt wording: the test suite
rewords them all (tests/support/rewording.py), so no code may depend on how one is worded."""

FACTS_TITLE = "ESTABLISHED FACTS"
FACTS_RULE = (
    "Everyone agreed on these in the owner's earlier debates. Take them as settled: build on them, "
    "do not re-debate them."
)
INSIGHTS_TITLE = "FROM EARLIER DEBATES"
INSIGHTS_RULE = "What earlier debates on related questions found. Use what helps; it is not settled."
PERSONA_TITLE = "YOUR EARLIER DEBATES"
PERSONA_RULE = "What you argued, held or conceded before. Stay consistent with it, or say why you changed."
FROM_THIS_REPOSITORY = "(this repository) "
FROM_THIS_ASSIGNMENT = "(this assignment) "
