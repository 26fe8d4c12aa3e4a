from app.optin import parse_opt_in
from app.subscribers import import_subscribers, opt_in_rate

EXPORT = """email,opt_in
ana@example.org,yes
ben@example.org,no
cho@example.org,0
dev@example.org,Y
eli@example.org,N
"""


def test_no_means_no():
    assert parse_opt_in("No") is False


def test_zero_means_no():
    assert parse_opt_in("0") is False


def test_import_keeps_only_consenting_subscribers():
    assert import_subscribers(EXPORT) == ["ana@example.org", "dev@example.org"]


def test_opt_in_rate():
    assert opt_in_rate(EXPORT) == 0.4
