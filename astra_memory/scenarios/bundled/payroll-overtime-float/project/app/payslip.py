"""Payslip lines and the payroll total for a week."""

from decimal import Decimal

from app.pay import gross_pay


def payslip_line(name: str, hourly_rate: str, hours: str) -> str:
    """One line of the payroll report, e.g. "Ines: 681.47"."""
    return f"{name}: {gross_pay(hourly_rate, hours)}"


def payroll_total(timesheets: list[tuple[str, str, str]]) -> Decimal:
    """Sum of the gross pay of all (name, rate, hours) timesheets."""
    return sum((gross_pay(rate, hours) for _, rate, hours in timesheets), Decimal("0.00"))
