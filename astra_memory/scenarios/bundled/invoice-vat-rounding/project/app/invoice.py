"""Invoice totals, with VAT computed and rounded per line."""

from decimal import Decimal

from app.tax import vat_for


def invoice_totals(lines: list[tuple[str, str]], rate: str) -> dict[str, Decimal]:
    """Net, VAT and gross totals of (description, net amount) lines."""
    vat_rate = Decimal(rate)
    net = sum((Decimal(amount) for _, amount in lines), Decimal("0.00"))
    vat = sum((vat_for(Decimal(amount), vat_rate) for _, amount in lines), Decimal("0.00"))
    return {"net": net, "vat": vat, "gross": net + vat}
