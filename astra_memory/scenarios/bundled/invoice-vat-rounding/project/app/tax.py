"""VAT on invoice lines, rounded half up to the cent as the tax office requires."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def vat_for(net: Decimal, rate: Decimal) -> Decimal:
    """VAT owed on a net amount at the given rate (e.g. Decimal("0.21"))."""
    amount = float(net) * float(rate)
    return Decimal(str(round(amount, 2)))


def gross_for(net: Decimal, rate: Decimal) -> Decimal:
    """Net amount plus VAT."""
    return net + vat_for(net, rate)
