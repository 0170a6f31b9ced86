"""The graph mode: its behaviour, prompts, schemas, CLI printer and templates live in this folder."""
