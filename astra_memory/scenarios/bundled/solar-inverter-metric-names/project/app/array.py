"""Live view of a solar array: the latest sample of each inverter."""

from app.telemetry import parse_payload


class ArrayMonitor:
    def __init__(self):
        self.latest: dict[str, dict[str, float]] = {}
        self.dropped = 0

    def receive(self, inverter: str, payload: dict[str, object]) -> bool:
        """Store an inverter's sample; incomplete samples are counted and dropped."""
        sample = parse_payload(payload)
        if sample is None:
            self.dropped += 1
            return False
        self.latest[inverter] = sample
        return True

    def total_ac_power(self) -> float:
        """Watts fed in by the whole array right now."""
        return sum(sample["ac_power"] for sample in self.latest.values())

    def hottest_inverter(self) -> str | None:
        """The inverter whose panels are hottest, or None before the first sample."""
        if not self.latest:
            return None
        return max(self.latest, key=lambda inverter: self.latest[inverter]["panel_temp"])
