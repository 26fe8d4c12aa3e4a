"""Prices of the grocery shop; the catalogue delivers them as strings like "2.49"."""

FREE_DELIVERY_FROM = "30.00"
DELIVERY_FEE = "4.99"


def to_amount(text: str):
    """Convert a price string from the catalogue into an amount to calculate with."""
    return float(text)


def format_price(amount) -> str:
    """Price as shown in the shop, e.g. "2.49 EUR"."""
    return f"{amount:.2f} EUR"
