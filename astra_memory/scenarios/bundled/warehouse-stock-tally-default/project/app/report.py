"""Daily warehouse reports."""

from app.stock import tally


def daily_report(movements: list[tuple[str, int]]) -> list[str]:
    """Lines such as "BOLT-M6: +40", sorted by SKU."""
    return [f"{sku}: {qty:+d}" for sku, qty in sorted(tally(movements).items())]


def shrinking_skus(movements: list[tuple[str, int]]) -> list[str]:
    """SKUs of which more went out than came in during the batch."""
    return sorted(sku for sku, qty in tally(movements).items() if qty < 0)
