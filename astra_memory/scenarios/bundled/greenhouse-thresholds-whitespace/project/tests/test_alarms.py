from app.alarms import AlarmPanel
from app.thresholds import parse_thresholds


def test_zone_names_are_trimmed():
    assert parse_thresholds("north=28.5; south = 26") == {"north": 28.5, "south": 26.0}


def test_second_zone_uses_its_own_limit():
    panel = AlarmPanel("north=28.5; south=26")
    assert panel.limit_for("south") == 26.0


def test_alarm_raised_for_zones_after_the_first():
    panel = AlarmPanel("north=28.5; south=26; east=24")
    assert panel.check({"north": 27.0, "south": 27.0, "east": 25.0}) == ["south", "east"]


def test_multiline_spec_with_tabs():
    assert parse_thresholds("north=28.5;\n\tsouth=26\n") == {"north": 28.5, "south": 26.0}
