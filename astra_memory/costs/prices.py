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
_SNAPSHOT = re.compile(r"^(?P<base>.+)-\d{4}-\d{2}-\d{2}$")  # gpt-4.1-mini-2025-04-14 -> gpt-4.1-mini


def price_for(model: str, *, price_in: float | None = None, price_out: float | None = None) -> Price:
    """The price of ``model`` (without the ``openai:`` prefix).

    Explicit prices win over the table; a model that is not in the table needs both, so that
    nothing runs at an unknown price.
    """
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
