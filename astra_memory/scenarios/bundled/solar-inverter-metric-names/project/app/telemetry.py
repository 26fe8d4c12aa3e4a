"""Telemetry payloads posted by inverters: one JSON object of metric name -> value per sample.

Vendors disagree on how to spell metric names ("DC-Voltage", "AC Power", "PANEL_TEMP"); every
sample is stored under the canonical names of REQUIRED_METRICS.
"""

REQUIRED_METRICS = ("dc_voltage", "ac_power", "panel_temp")


def parse_payload(payload: dict[str, object]) -> dict[str, float] | None:
    """The required metrics of a payload as floats, or None when one of them is missing."""
    if any(name not in payload for name in REQUIRED_METRICS):
        return None
    return {name: float(payload[name]) for name in REQUIRED_METRICS}
