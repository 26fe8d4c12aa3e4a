"""Gross pay of hourly staff, from the rate and hours recorded on the timesheet."""

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
OVERTIME_FACTOR = 1.5


def gross_pay(hourly_rate: str, hours: str, weekly_limit: int = 40) -> Decimal:
    """Gross pay for one week, rounded half up to the cent.

    Timesheets give rate and hours as strings ("15.19", "39.5"); hours above
    weekly_limit are paid at OVERTIME_FACTOR times the hourly rate.
    """
    rate = float(hourly_rate)
    worked = float(hours)
    regular = min(worked, weekly_limit)
    overtime = max(worked - weekly_limit, 0)
    total = rate * regular + rate * OVERTIME_FACTOR * overtime
    return Decimal(total).quantize(CENT, rounding=ROUND_HALF_UP)
