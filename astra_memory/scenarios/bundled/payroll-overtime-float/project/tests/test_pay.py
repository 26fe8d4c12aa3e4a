from decimal import Decimal

from app.pay import gross_pay
from app.payslip import payroll_total, payslip_line


def test_regular_hours_round_half_up():
    assert gross_pay("15.19", "39.5") == Decimal("600.01")


def test_overtime_pay():
    assert gross_pay("15.02", "41.5") == Decimal("634.60")


def test_payslip_line():
    assert payslip_line("Ines", "15.06", "43.5") == "Ines: 681.47"


def test_payroll_total():
    timesheets = [("Ines", "15.06", "43.5"), ("Omar", "15.19", "39.5"), ("Lea", "20.00", "40")]
    assert payroll_total(timesheets) == Decimal("2081.48")
