"""Django's PostgreSQL backend with a pool that waits, saying so, when it is empty
(faultline/database/base.py)."""
