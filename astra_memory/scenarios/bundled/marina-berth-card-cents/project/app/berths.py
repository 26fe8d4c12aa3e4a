"""Charges for a stay at the marina, sent to the card terminal as one payment request."""

from decimal import Decimal

from app.cents import to_cents


def fuel_line(litres: str, price_per_litre: str) -> tuple[str, Decimal]:
    """A fuel dock line: the exact amount, rounded only when converted to cents."""
    return (f"Diesel {litres} l", Decimal(litres) * Decimal(price_per_litre))


def payment_request(lines: list[tuple[str, str | Decimal]]) -> dict[str, object]:
    """Terminal payload with every (label, amount) line and the total in whole cents."""
    items = [{"label": label, "cents": to_cents(amount)} for label, amount in lines]
    return {"currency": "EUR", "items": items, "total_cents": sum(item["cents"] for item in items)}
