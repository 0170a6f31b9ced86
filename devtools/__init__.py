"""Development tools, never imported by the running site: local stand-ins for the model and
embedding APIs (they speak the real wire formats, so the real SDKs are exercised) and the scripted
debate that answers through them. The test suite, the benchmarks and ``manage.py evaluate --model
fake`` use them; an import-linter contract keeps every other package away."""
