"""The collaborate mode: its behaviour, prompts, schemas, CLI printer and templates live in this folder."""
