"""The worker's and daphne's start-up heaps are set aside from the garbage collector
(ops/heap.py): a full collection then walks only what was made since start-up, instead of
stopping every thread for 0.1–0.2 s to walk some 270,000 objects that live as long as the process."""

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest
from celery.signals import worker_init, worker_process_init

from faultline import celery as worker_module
from ops.heap import freeze_start_up_heap

pytestmark = pytest.mark.slow  # starts a worker and a web application

ROOT = Path(__file__).resolve().parents[2]


def test_freezing_collects_start_up_garbage_first_and_sets_the_rest_aside():
    class Cycle:
        pass

    garbage = Cycle()
    garbage.self = garbage
    kept = Cycle()
    kept.self = kept
    garbage_ref = weakref.ref(garbage)  # an id could be reused by a newer object; a weak reference cannot
    del garbage
    try:
        frozen = freeze_start_up_heap("test")
        assert frozen > 0 and gc.get_freeze_count() > 0  # (objects freed since leave the count)
        assert garbage_ref() is None  # collected, not frozen
        assert not any(o is kept for o in gc.get_objects())  # set aside: no generation holds it
        gc.collect()
        assert not any(o is kept for o in gc.get_objects())  # a full collection does not walk it
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects(generation=2))


def test_the_web_application_sets_its_start_up_heap_aside_once_loaded():
    probe = "import gc, faultline.asgi; print(gc.get_freeze_count())"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "faultline.settings"}
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
    )
    assert int(result.stdout.split()[-1]) > 50_000  # Django, channels, the apps: not a handful


def test_the_worker_freezes_after_its_warm_up():
    for signal in (worker_init, worker_process_init):
        receivers = [receiver() for _, receiver in signal.receivers]
        assert receivers.index(worker_module.warm_up) < receivers.index(worker_module._set_start_up_heap_aside)
