"""The fake Messages API answers when its reply says, and not later: the critical-path benchmark
and the tests that time a debate rely on it."""

import statistics
import time

import anthropic

from gateways.llm.fake_messages_api import FakeMessagesAPI, Reply


def test_a_json_reply_on_a_kept_alive_connection_adds_no_delay():
    # Headers and body go out as two writes; with Nagle's algorithm on, the body waited for the
    # client's delayed ACK (about 40 ms) on every call after a connection's first.
    with FakeMessagesAPI(responder=lambda body: Reply.json({"ok": True})) as api:
        client = anthropic.Anthropic(api_key="test", base_url=api.url, max_retries=0)
        took = []
        for _ in range(10):
            started = time.perf_counter()
            client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
            took.append(time.perf_counter() - started)

    assert statistics.median(took[1:]) < 0.025
