from decimal import Decimal

from app.invoice import invoice_totals
from app.tax import gross_for, vat_for


def test_half_cent_rounds_up_at_21_percent():
    assert vat_for(Decimal("9.50"), Decimal("0.21")) == Decimal("2.00")


def test_half_cent_rounds_up_at_10_percent():
    assert vat_for(Decimal("1.15"), Decimal("0.10")) == Decimal("0.12")


def test_gross_amount():
    assert gross_for(Decimal("2.50"), Decimal("0.19")) == Decimal("2.98")


def test_invoice_vat_is_summed_per_line():
    totals = invoice_totals([("Logo design", "8.50"), ("Hosting", "4.50")], "0.19")
    assert totals == {"net": Decimal("13.00"), "vat": Decimal("2.48"), "gross": Decimal("15.48")}
