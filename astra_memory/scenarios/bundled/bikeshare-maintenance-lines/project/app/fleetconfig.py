"""Blocks of the operator's fleet config that list bike ids, one per line."""


def parse_bike_ids(block: str) -> set[str]:
    """Bike ids of a block such as MAINTENANCE, e.g. "B-102\\n  B-117" -> {"B-102", "B-117"}.

    Ids are upper-cased; blank lines and lines starting with "#" are ignored.
    """
    ids: set[str] = set()
    for line in block.split("\n"):
        if not line or line.startswith("#"):
            continue
        ids.add(line.upper())
    return ids
