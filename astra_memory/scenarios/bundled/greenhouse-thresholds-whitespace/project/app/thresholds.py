"""Alarm thresholds of greenhouse sensors, configured as "zone=limit" pairs."""


def parse_thresholds(spec: str) -> dict[str, float]:
    """Parse e.g. "north=28.5; south=26" into {"north": 28.5, "south": 26.0}.

    Entries without an "=" are ignored, later entries override earlier ones.
    """
    limits: dict[str, float] = {}
    for entry in spec.split(";"):
        if "=" not in entry:
            continue
        zone, limit = entry.split("=", 1)
        limits[zone] = float(limit)
    return limits
