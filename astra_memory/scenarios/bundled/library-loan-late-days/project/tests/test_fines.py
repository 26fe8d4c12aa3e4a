from datetime import date
from decimal import Decimal

from app.fines import late_fee, overdue_days
from app.loans import Loan, fees_owed


def test_overdue_days_include_the_return_day():
    assert overdue_days(date(2024, 5, 10), date(2024, 5, 12)) == [date(2024, 5, 11), date(2024, 5, 12)]


def test_one_day_late_is_charged():
    assert late_fee(date(2024, 5, 10), date(2024, 5, 11)) == Decimal("0.25")


def test_fees_of_a_members_returns():
    novel = Loan("The Long Winter", borrowed=date(2024, 4, 1))  # due 22 April
    atlas = Loan("Road Atlas", borrowed=date(2024, 4, 8), period_days=7)  # due 15 April
    owed = fees_owed([(novel, date(2024, 4, 25)), (atlas, date(2024, 4, 17))])
    assert owed == Decimal("1.25")


def test_fee_reaches_the_cap_after_twenty_days():
    assert late_fee(date(2024, 6, 1), date(2024, 6, 21)) == Decimal("5.00")
