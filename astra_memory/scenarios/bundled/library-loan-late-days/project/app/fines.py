"""Late fees: a fee for every day an item is kept past its due date, capped per loan."""

from datetime import date, timedelta
from decimal import Decimal

DAILY_FEE = Decimal("0.25")
MAX_FEE = Decimal("5.00")


def overdue_days(due: date, returned: date) -> list[date]:
    """The days after the due date on which the item was still out, the return day included."""
    return [due + timedelta(days=n) for n in range(1, (returned - due).days)]


def late_fee(due: date, returned: date) -> Decimal:
    """DAILY_FEE for each overdue day, never more than MAX_FEE."""
    return min(DAILY_FEE * len(overdue_days(due, returned)), MAX_FEE)
