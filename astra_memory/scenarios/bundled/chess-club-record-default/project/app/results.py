"""Reporting game results and computing the standings."""

from app.players import points


def report_game(white: dict, black: dict, result: str) -> None:
    """Record a game; result is "1-0", "0-1" or "1/2-1/2"."""
    if result == "1-0":
        white["record"]["won"] += 1
        black["record"]["lost"] += 1
    elif result == "0-1":
        black["record"]["won"] += 1
        white["record"]["lost"] += 1
    elif result == "1/2-1/2":
        white["record"]["drawn"] += 1
        black["record"]["drawn"] += 1
    else:
        raise ValueError(f"unknown result {result!r}")


def standings(players: list[dict]) -> list[tuple[str, float]]:
    """(name, points) pairs, best first; ties are listed by name."""
    return sorted(((p["name"], points(p)) for p in players), key=lambda row: (-row[1], row[0]))
