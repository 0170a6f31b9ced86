"""Estimated prices in USD per million tokens, by model family (list prices; estimates only), and
what the API will cache for each family.

Cache writes cost 1.25x the input price for the 5-minute cache and 2x for the 1-hour cache; cache
reads cost 0.1x, as Anthropic bills them. The Message Batches API bills half of every price. The
offline model costs nothing.

A cache breakpoint caches the prompt up to and including its block only if that prefix holds at
least the model's minimum cacheable length (MIN_CACHEABLE_TOKENS): a shorter one is sent, and billed,
as plain input. The fake Messages API (devtools/fake_messages_api.py) and the prompt tests read the
same table, so a prompt that caches in the tests caches on the API.
"""

from decimal import Decimal

PER_MILLION = {
    # family prefix: (input, output)
    "claude-opus": (Decimal("5"), Decimal("25")),
    "claude-sonnet": (Decimal("3"), Decimal("15")),
    "claude-haiku": (Decimal("1"), Decimal("5")),
}
# family prefix: the shortest prefix, in tokens, a cache breakpoint caches (the documented minimum
# of the family's latest models: 1,024 for Sonnet, 4,096 for Opus and Haiku).
MIN_CACHEABLE_TOKENS = {
    "claude-opus": 4096,
    "claude-sonnet": 1024,
    "claude-haiku": 4096,
}
CACHE_WRITE_FACTOR = Decimal("1.25")  # the 5-minute cache
CACHE_WRITE_FACTOR_1H = Decimal("2")  # the 1-hour cache
CACHE_READ_FACTOR = Decimal("0.1")
BATCH_FACTOR = Decimal("0.5")  # the Message Batches API: half price, answers within 24 hours
CACHE_TTLS = ("5m", "1h")


def estimated_tokens(text: str) -> int:
    """Tokens of ``text`` at 4 characters a token: the estimate the breakpoint check, the fake
    Messages API and the context budgets all use (a real tokenizer differs by a few percent)."""
    return -(-len(text) // 4)


def breakpoint_pays(prefix: str, model: str) -> bool:
    """Whether a cache breakpoint after ``prefix`` caches anything on ``model``: the prefix reaches
    the model's minimum cacheable length. A shorter one is ignored by the API, so it is not sent."""
    minimum = min_cacheable_tokens(model)
    return minimum is not None and estimated_tokens(prefix) >= minimum


def _family(table: dict, model: str):
    return next((value for prefix, value in table.items() if model.startswith(prefix)), None)


def min_cacheable_tokens(model: str) -> int | None:
    """The shortest prefix a cache breakpoint caches on ``model``; None for a model that caches
    nothing (the offline one)."""
    return _family(MIN_CACHEABLE_TOKENS, model)


def cached_share(*, input_tokens: int, cache_creation_tokens: int, cache_read_tokens: int) -> float | None:
    """The part of the input read from the prompt cache (billed at a tenth); None without input."""
    total = input_tokens + cache_creation_tokens + cache_read_tokens
    return cache_read_tokens / total if total else None


def estimate_cost(
    *,
    model: str,
    input_tokens: int,
    output_tokens: int,
    cache_creation_tokens: int = 0,
    cache_read_tokens: int = 0,
    cache_ttl: str = "5m",
    batched: bool = False,
    cache_creation_1h_tokens: int | None = None,
) -> Decimal:
    """``cache_creation_1h_tokens``: how many of the cache writes went to the one-hour cache, as
    the API's usage breaks them down; without it every write is billed at ``cache_ttl``'s rate."""
    prices = _family(PER_MILLION, model)
    if prices is None:
        return Decimal("0")
    input_price, output_price = prices
    if cache_creation_1h_tokens is None:
        cache_creation_1h_tokens = cache_creation_tokens if cache_ttl == "1h" else 0
    for_the_hour = min(cache_creation_1h_tokens, cache_creation_tokens)
    total = (
        input_tokens * input_price
        + output_tokens * output_price
        + (cache_creation_tokens - for_the_hour) * input_price * CACHE_WRITE_FACTOR
        + for_the_hour * input_price * CACHE_WRITE_FACTOR_1H
        + cache_read_tokens * input_price * CACHE_READ_FACTOR
    )
    if batched:
        total *= BATCH_FACTOR
    return (total / Decimal(1_000_000)).quantize(Decimal("0.000001"))
