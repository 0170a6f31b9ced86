"""What the gateway itself says to a model: the repair request after a structured answer that did
not fit its schema. Every module-level string here is prompt wording (the test suite rewords
them all: tests/support/rewording.py)."""

REPAIR = "That output was not valid: {error}. Reply again with only the complete JSON object that matches the schema."
EMPTY_OUTPUT = "(empty)"
