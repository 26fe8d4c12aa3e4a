from app.report import daily_report, shrinking_skus
from app.stock import tally


def test_each_tally_starts_empty():
    tally([("NUT-M6", 100)])
    assert tally([("WASHER-8", 25)]) == {"WASHER-8": 25}


def test_second_daily_report_only_has_its_own_movements():
    daily_report([("BOLT-M6", 40), ("BOLT-M6", -15)])
    assert daily_report([("HINGE-50", 12)]) == ["HINGE-50: +12"]


def test_shrinking_skus_of_one_batch():
    shrinking_skus([("PIPE-22", -5)])
    assert shrinking_skus([("PIPE-22", 3), ("VALVE-15", -2)]) == ["VALVE-15"]
