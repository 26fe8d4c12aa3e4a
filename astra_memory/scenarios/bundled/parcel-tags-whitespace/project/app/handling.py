"""Depot handling decisions derived from a parcel's label tags."""

from app.labels import parse_label_tags


def needs_cold_chain(raw_tags: str) -> bool:
    """Perishable parcels must stay in the refrigerated area."""
    return "perishable" in parse_label_tags(raw_tags)


def handling_lane(raw_tags: str) -> str:
    """Conveyor lane for a parcel: bulk beats careful, careful beats standard."""
    tags = parse_label_tags(raw_tags)
    if "oversize" in tags:
        return "bulk"
    if "fragile" in tags:
        return "careful"
    return "standard"
