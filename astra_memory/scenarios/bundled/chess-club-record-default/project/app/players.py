"""Players registered for the chess club's tournaments."""


def new_player(name: str, rating: int = 1200, record: dict = {"won": 0, "drawn": 0, "lost": 0}) -> dict:
    """A player entry; newcomers start with an empty game record."""
    return {"name": name, "rating": rating, "record": record}


def points(player: dict) -> float:
    """Tournament points: one per win, half per draw."""
    return player["record"]["won"] + 0.5 * player["record"]["drawn"]
