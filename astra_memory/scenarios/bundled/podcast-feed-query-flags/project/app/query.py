"""Options of the feed endpoint, read from its query string, e.g. "explicit=no&bonus=1&limit=20"."""

from urllib.parse import parse_qs

DEFAULTS = {"explicit": True, "bonus": True, "limit": 50}


def feed_options(query: str) -> dict[str, object]:
    """Options of one feed request.

    Unknown parameters are ignored; when a parameter is repeated its last value wins.
    """
    options = dict(DEFAULTS)
    for name, values in parse_qs(query, keep_blank_values=True).items():
        if name == "limit":
            options["limit"] = int(values[-1])
        elif name in ("explicit", "bonus"):
            options[name] = values[-1]
    return options
