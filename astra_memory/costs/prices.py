"""Prices and worst-case estimates of live model requests.

Explicit prices come through the run's Context (``--price-in`` / ``--price-out``, or
``ASTRA_PRICE_IN_PER_MTOK`` / ``ASTRA_PRICE_OUT_PER_MTOK``); this module reads no environment.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from astra_memory.errors import ConfigurationError


@dataclass(frozen=True)
class Price:
    """USD per million input / output tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input_per_mtok + output_tokens * self.output_per_mtok) / 1_000_000


# OpenAI list prices (standard tier, USD per 1M tokens) as published in 2025. Cached input is
# billed less; charging it at the full input price errs on the safe side. Prices change: pass
# --price-in/--price-out (or ASTRA_PRICE_IN_PER_MTOK / ASTRA_PRICE_OUT_PER_MTOK) to override.
PRICES: dict[str, Price] = {
    "gpt-5": Price(1.25, 10.00),
    "gpt-5-mini": Price(0.25, 2.00),
    "gpt-5-nano": Price(0.05, 0.40),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "o3": Price(2.00, 8.00),
    "o3-mini": Price(1.10, 4.40),
    "o4-mini": Price(1.10, 4.40),
}
# Service tiers that change the price (OpenAI pricing page, 2025; the response reports the tier used).
# flex: "Batch API rates", half the standard price, offered for gpt-5, gpt-5-mini, gpt-5-nano, o3 and
# o4-mini (platform docs, "Flex processing"); for any other model the standard price is charged (never
# less than the server may bill). priority: its own list prices per model; a model without a known
# priority price needs --price-in/--price-out. auto and default are charged at the standard price.
FLEX_FACTOR = 0.5
FLEX_MODELS = frozenset({"gpt-5", "gpt-5-mini", "gpt-5-nano", "o3", "o4-mini"})
PRIORITY_PRICES: dict[str, Price] = {
    "gpt-5": Price(2.50, 20.00),
    "gpt-5-mini": Price(0.45, 3.60),
    "gpt-4.1": Price(3.50, 14.00),
    "gpt-4.1-mini": Price(0.70, 2.80),
    "gpt-4.1-nano": Price(0.20, 0.80),
    "gpt-4o": Price(4.25, 17.00),
    "gpt-4o-mini": Price(0.25, 1.00),
    "o3": Price(3.50, 14.00),
    "o4-mini": Price(2.00, 8.00),
}
SERVICE_TIERS = ("auto", "default", "flex", "priority")
_SNAPSHOT = re.compile(r"^(?P<base>.+)-\d{4}-\d{2}-\d{2}$")  # gpt-4.1-mini-2025-04-14 -> gpt-4.1-mini


def _base(model: str) -> str:
    match = _SNAPSHOT.match(model)
    return match["base"] if match and model not in PRICES else model


def tier_price(model: str, standard: Price, service_tier: str | None) -> Price:
    """The table price of ``model`` in ``service_tier`` (standard unless the tier changes it)."""
    base = _base(model)
    if service_tier == "flex" and base in FLEX_MODELS:
        return Price(standard.input_per_mtok * FLEX_FACTOR, standard.output_per_mtok * FLEX_FACTOR)
    if service_tier == "priority":
        known = PRIORITY_PRICES.get(base)
        if known is None:
            raise ConfigurationError(
                f"no priority-tier price is known for model {model!r}: pass --price-in and --price-out (USD per "
                f"million tokens at priority). Known: {', '.join(sorted(PRIORITY_PRICES))}")
        return known
    return standard


def price_for(model: str, *, price_in: float | None = None, price_out: float | None = None,
              service_tier: str | None = None) -> Price:
    """The price of ``model`` (without the ``openai:`` prefix) in ``service_tier``.

    Explicit prices win over the table (they are the price of the tier the run uses); a model that
    is not in the table needs both, so that nothing runs at an unknown price.
    """
    if service_tier is not None and service_tier not in SERVICE_TIERS:
        raise ConfigurationError(f"--service-tier must be one of {', '.join(SERVICE_TIERS)} (got {service_tier!r})")
    for value, flag in ((price_in, "--price-in"), (price_out, "--price-out")):
        if value is not None and (not math.isfinite(value) or value < 0):
            raise ConfigurationError(f"{flag} must be a finite number >= 0 (USD per million tokens)")
    known = PRICES.get(model)
    if known is None and (match := _SNAPSHOT.match(model)):
        known = PRICES.get(match["base"])
    if price_in is not None and price_out is not None:
        return Price(price_in, price_out)
    if known is None:
        raise ConfigurationError(
            f"no price is known for model {model!r}, so its cost cannot be bounded: pass --price-in and "
            f"--price-out (USD per million tokens; 0 and 0 for a free local server such as Ollama) or set "
            f"ASTRA_PRICE_IN_PER_MTOK and ASTRA_PRICE_OUT_PER_MTOK. Known models: {', '.join(sorted(PRICES))}"
        )
    known = tier_price(model, known, service_tier)
    return Price(price_in if price_in is not None else known.input_per_mtok,
                 price_out if price_out is not None else known.output_per_mtok)


def input_token_bound(request_text: str, messages: int) -> int:
    """An upper bound on the input tokens of a request whose JSON serialization is ``request_text``.

    Why bytes: a token of any byte-level BPE tokenizer (OpenAI's, Llama's, ...) stands for at least
    one byte of text, so the UTF-8 size of the serialized messages and tool schemas bounds their
    token count. Chat templates add a few tokens per message that are not in the text; the JSON
    punctuation around each message more than covers them, and a fixed margin covers the rest.
    It over-estimates (typically 3-4x): a reservation is settled to the real usage afterwards,
    so the only cost of the margin is refusing a last request that would in fact have fitted.
    """
    return len(request_text.encode("utf-8")) + 8 * messages + 256


def check_limit(value: float, setting: str) -> float:
    """A spend limit must be a positive, finite amount."""
    if not math.isfinite(value) or value <= 0:
        raise ConfigurationError(f"{setting} must be a positive amount in USD, got {value!r}")
    return value
