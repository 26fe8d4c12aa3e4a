"""Raises alarms when a greenhouse zone gets too warm."""

from app.thresholds import parse_thresholds


class AlarmPanel:
    """Compares sensor readings with the configured per-zone limits."""

    def __init__(self, spec: str, default_limit: float = 30.0):
        self.limits = parse_thresholds(spec)
        self.default_limit = default_limit

    def limit_for(self, zone: str) -> float:
        return self.limits.get(zone, self.default_limit)

    def check(self, readings: dict[str, float]) -> list[str]:
        """Zones whose reading is above their limit, in reading order."""
        return [zone for zone, value in readings.items() if value > self.limit_for(zone)]
