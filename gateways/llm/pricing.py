"""Estimated prices in USD per million tokens, by model family (list prices; estimates only).

Cache writes cost 1.25x the input price and cache reads 0.1x, as Anthropic bills them.
The offline model costs nothing.
"""

from decimal import Decimal

PER_MILLION = {
    # family prefix: (input, output)
    "claude-opus": (Decimal("5"), Decimal("25")),
    "claude-sonnet": (Decimal("3"), Decimal("15")),
    "claude-haiku": (Decimal("1"), Decimal("5")),
}
CACHE_WRITE_FACTOR = Decimal("1.25")
CACHE_READ_FACTOR = Decimal("0.1")


def estimate_cost(
    *, model: str, input_tokens: int, output_tokens: int, cache_creation_tokens: int = 0, cache_read_tokens: int = 0
) -> Decimal:
    prices = next((p for prefix, p in PER_MILLION.items() if model.startswith(prefix)), None)
    if prices is None:
        return Decimal("0")
    input_price, output_price = prices
    total = (
        input_tokens * input_price
        + output_tokens * output_price
        + cache_creation_tokens * input_price * CACHE_WRITE_FACTOR
        + cache_read_tokens * input_price * CACHE_READ_FACTOR
    )
    return (total / Decimal(1_000_000)).quantize(Decimal("0.000001"))
