"""The truth corpus: scenarios as plain TOML files (truth/), read by loader.py. README.md says the
format and how a runner plays it."""
