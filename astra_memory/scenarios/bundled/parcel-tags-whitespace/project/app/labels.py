"""Tags printed on parcel labels by the sender's shipping software."""

KNOWN_TAGS = {"fragile", "perishable", "oversize", "signature"}


def parse_label_tags(raw: str) -> list[str]:
    """Turn the label's tag field (e.g. "Fragile, Perishable") into lower-case tags.

    Duplicate tags are reported once, in the order they first appear.
    """
    if not raw:
        return []
    tags = []
    for part in raw.lower().split(","):
        if part and part not in tags:
            tags.append(part)
    return tags


def unknown_tags(raw: str) -> list[str]:
    """Tags on the label that the depot does not recognise."""
    return [tag for tag in parse_label_tags(raw) if tag not in KNOWN_TAGS]
