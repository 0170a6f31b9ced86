"""Operations: the processes around the site rather than the site. The launcher (``python -m
faultline`` runs ``ops.launcher``), the embedded PostgreSQL and Redis, the web and worker liveness
checks and the start-up heap. Beside the site's wiring (``faultline``), which uses it: nothing here
imports an app, a gateway or the wiring, and no app imports it."""
