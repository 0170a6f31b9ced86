"""The fake Messages API bills prompt caching the way the API does: per cache_control breakpoint,
the prefix hashed, only from the model's minimum cacheable length up, for the breakpoint's TTL.
The cost benchmark's cached share is only as true as this."""

import anthropic
import pytest

from devtools.fake_messages_api import FakeMessagesAPI, Reply
from gateways.llm.pricing import min_cacheable_tokens

SONNET, HAIKU = "claude-sonnet-5-5", "claude-haiku-5-5"


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def words(tokens: int, seed: str = "a") -> str:
    return (seed * 4) * tokens  # 4 characters a token


def ask(client, model, system, question="What now?", ttl=None):
    control = {"type": "ephemeral", **({"ttl": ttl} if ttl else {})}
    return client.messages.create(
        model=model,
        max_tokens=10,
        system=[{"type": "text", "text": system, "cache_control": control}],
        messages=[{"role": "user", "content": question}],
    ).usage


def ask_so_far(client, system, said, then=None):
    """One call of a conversation grown to `said`, a block each, its last breakpoint on the last
    block said; `then`, if given, follows it uncached."""
    blocks = [{"type": "text", "text": text} for text in said]
    blocks[-1]["cache_control"] = {"type": "ephemeral"}
    if then:
        blocks.append({"type": "text", "text": then})
    return client.messages.create(
        model=SONNET, max_tokens=10, system=system, messages=[{"role": "user", "content": blocks}]
    ).usage


@pytest.fixture
def api():
    clock = Clock()
    with FakeMessagesAPI(responder=lambda body, call: Reply.says("ok"), clock=clock) as fake:
        fake.clock = clock
        yield fake


def client_of(api):
    return anthropic.Anthropic(api_key="test", base_url=api.url, max_retries=0)


def test_a_prefix_at_the_minimum_is_written_once_then_read(api):
    client = client_of(api)
    system = words(min_cacheable_tokens(SONNET))
    first, second = ask(client, SONNET, system), ask(client, SONNET, system, question="And then?")

    assert (first.cache_creation_input_tokens, first.cache_read_input_tokens) == (1024, 0)
    assert (second.cache_creation_input_tokens, second.cache_read_input_tokens) == (0, 1024)
    assert second.input_tokens == len("And then?") // 4 + 1  # only what follows the breakpoint


def test_a_prefix_below_the_model_minimum_is_never_cached(api):
    client = client_of(api)
    system = words(2000)  # enough for Sonnet, not for Haiku
    usages = [ask(client, HAIKU, system) for _ in range(3)]

    assert all(u.cache_creation_input_tokens == u.cache_read_input_tokens == 0 for u in usages)
    assert usages[-1].input_tokens > 2000


def test_a_changed_prefix_misses(api):
    client = client_of(api)
    ask(client, SONNET, words(1500))
    other = ask(client, SONNET, words(1500, seed="b"))

    assert (other.cache_creation_input_tokens, other.cache_read_input_tokens) == (1500, 0)


def test_the_longest_cached_breakpoint_is_read_and_the_rest_written(api):
    client = client_of(api)
    frame, later = words(1200), words(300, seed="c")

    def call(tail):
        return client.messages.create(
            model=SONNET,
            max_tokens=10,
            system=[
                {"type": "text", "text": frame, "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": tail, "cache_control": {"type": "ephemeral"}},
            ],
            messages=[{"role": "user", "content": "go"}],
        ).usage

    call(later)
    changed = call(words(300, seed="d"))

    assert (changed.cache_read_input_tokens, changed.cache_creation_input_tokens) == (1200, 300)


def test_the_five_minute_cache_expires_and_the_hour_cache_does_not(api):
    client = client_of(api)
    short, long = words(1100, seed="s"), words(1100, seed="l")
    ask(client, SONNET, short)
    ask(client, SONNET, long, ttl="1h")
    api.clock.now += 6 * 60

    assert ask(client, SONNET, short).cache_read_input_tokens == 0
    assert ask(client, SONNET, long, ttl="1h").cache_read_input_tokens == 1100


def test_more_than_four_breakpoints_are_refused(api):
    client = client_of(api)
    block = {"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(
            model=SONNET, max_tokens=10, system=[block] * 5, messages=[{"role": "user", "content": "go"}]
        )


def test_a_breakpoint_reads_what_an_earlier_call_cached_a_few_blocks_before_it(api):
    """A conversation grows by a block per call, its last breakpoint moved to its end: the API
    looks for a hit at the block boundaries before the breakpoint, so each call reads what the
    one before it wrote and writes only its new block."""
    client = client_of(api)
    frame = words(1100)
    said = [words(50, seed=seed) for seed in "defghij"]

    def call(upto):
        system = [{"type": "text", "text": frame, "cache_control": {"type": "ephemeral"}}]
        return ask_so_far(client, system, said[:upto], then="Your turn.")

    first, second, third = call(2), call(3), call(6)

    assert (first.cache_read_input_tokens, first.cache_creation_input_tokens) == (0, 1200)
    assert (second.cache_read_input_tokens, second.cache_creation_input_tokens) == (1200, 50)
    assert (third.cache_read_input_tokens, third.cache_creation_input_tokens) == (1250, 150)


def test_the_lookback_reaches_twenty_blocks_and_no_further(api):
    client = client_of(api)
    frame = words(1100)
    said = [words(5, seed=chr(ord("A") + n)) for n in range(30)]

    def call(upto):
        return ask_so_far(client, [{"type": "text", "text": frame}], said[:upto])

    call(1)
    assert call(22).cache_read_input_tokens == 0  # 21 blocks on: call(1)'s entry is out of reach
    assert call(21).cache_read_input_tokens == 1105  # 20 blocks on: it is found


def test_an_hour_prefix_before_five_minute_blocks_is_written_to_each_cache_and_broken_down(api):
    client = client_of(api)
    contract, exchange = words(1100, seed="c"), words(300, seed="e")

    def call():
        return client.messages.create(
            model=SONNET,
            max_tokens=10,
            system=[{"type": "text", "text": contract, "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
            messages=[
                {
                    "role": "user",
                    "content": [{"type": "text", "text": exchange, "cache_control": {"type": "ephemeral"}}],
                }
            ],
        ).usage

    first = call()
    assert first.cache_creation_input_tokens == 1400
    assert (first.cache_creation.ephemeral_1h_input_tokens, first.cache_creation.ephemeral_5m_input_tokens) == (
        1100,
        300,
    )
    api.clock.now += 20 * 60  # the owner's pause: the exchange's entry is gone, the contract's is not
    later = call()
    assert later.cache_read_input_tokens == 1100
    assert (later.cache_creation.ephemeral_1h_input_tokens, later.cache_creation.ephemeral_5m_input_tokens) == (0, 300)


def test_an_hour_breakpoint_after_a_five_minute_one_is_refused(api):
    client = client_of(api)
    with pytest.raises(anthropic.BadRequestError):
        client.messages.create(
            model=SONNET,
            max_tokens=10,
            system=[
                {"type": "text", "text": words(1100), "cache_control": {"type": "ephemeral"}},
                {"type": "text", "text": "more", "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            ],
            messages=[{"role": "user", "content": "go"}],
        )
