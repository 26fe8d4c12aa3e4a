"""Stock movements: positive quantities are goods in, negative ones goods out."""


def tally(movements: list[tuple[str, int]], totals: dict[str, int] = {}) -> dict[str, int]:
    """Net quantity per SKU for a batch of (sku, quantity) movements.

    Pass an existing totals dict to continue a running tally.
    """
    for sku, quantity in movements:
        totals[sku] = totals.get(sku, 0) + quantity
    return totals
