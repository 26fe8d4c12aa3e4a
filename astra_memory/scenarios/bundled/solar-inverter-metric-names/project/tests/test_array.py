from app.array import ArrayMonitor
from app.telemetry import parse_payload


def test_hyphenated_and_spaced_metric_names():
    payload = {"DC-Voltage": "612.5", "AC Power": 4810, "Panel_Temp": 41.2}
    assert parse_payload(payload) == {"dc_voltage": 612.5, "ac_power": 4810.0, "panel_temp": 41.2}


def test_upper_case_metric_names():
    payload = {"DC_VOLTAGE": 598, "AC_POWER": 4020.5, " PANEL_TEMP ": 39}
    assert parse_payload(payload) == {"dc_voltage": 598.0, "ac_power": 4020.5, "panel_temp": 39.0}


def test_array_total_counts_every_vendor():
    monitor = ArrayMonitor()
    monitor.receive("roof-east", {"dc_voltage": 605, "ac_power": 3900, "panel_temp": 37.5})
    monitor.receive("roof-west", {"DC Voltage": 611, "AC Power": 4100, "Panel Temp": 44.0})
    assert (monitor.total_ac_power(), monitor.dropped) == (8000.0, 0)


def test_hottest_inverter_across_vendors():
    monitor = ArrayMonitor()
    monitor.receive("carport", {"dc_voltage": 580, "ac_power": 2500, "panel_temp": 36.0})
    monitor.receive("barn", {"DC-Voltage": 590, "AC-Power": 2700, "Panel-Temp": 48.5})
    assert monitor.hottest_inverter() == "barn"
