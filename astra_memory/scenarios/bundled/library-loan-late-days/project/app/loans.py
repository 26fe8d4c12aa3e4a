"""Items lent to library members."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from app.fines import late_fee


@dataclass
class Loan:
    item: str
    borrowed: date
    period_days: int = 21

    @property
    def due(self) -> date:
        return self.borrowed + timedelta(days=self.period_days)

    def fee_on_return(self, returned: date) -> Decimal:
        return late_fee(self.due, returned)


def fees_owed(returns: list[tuple[Loan, date]]) -> Decimal:
    """Total late fees of a member's returned loans."""
    return sum((loan.fee_on_return(returned) for loan, returned in returns), Decimal("0.00"))
