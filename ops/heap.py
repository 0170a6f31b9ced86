"""The start-up heap of a long-lived process (the worker, daphne), set aside from the collector.

A full collection walks every tracked object. After Django, the engine, the SDK and the embedder
are loaded that is some 270,000 objects: a full collection of the worker took 0.1–0.2 s holding the
GIL (every thread of every debate stopped) and ran every few seconds under load, and daphne's up to
0.09 s, in which no socket was served (benchmarks/README.md, live updates, 2026-11-26 afternoon).
Those objects live as long as the process, so walking them finds nothing: once loaded, the process
moves them to the permanent generation (``gc.freeze``) and later collections walk only what was
made since."""

import gc
import logging

logger = logging.getLogger(__name__)


def freeze_start_up_heap(process: str) -> int:
    """Collect what start-up left behind, then freeze the rest. Returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    logger.info("%s: %d start-up objects set aside from garbage collection", process, frozen)
    return frozen
