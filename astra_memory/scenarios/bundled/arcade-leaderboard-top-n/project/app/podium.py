"""Podium and display lines for the hall's big screen."""

from app.ranking import top


def podium(scores: dict[str, int]) -> list[str]:
    """Names of the gold, silver and bronze players."""
    return [player for _, player, _ in top(scores, 3)]


def screen_lines(scores: dict[str, int], n: int = 5) -> list[str]:
    """Lines like " 1. ann  700" for the leaderboard screen."""
    return [f"{position:>2}. {player:<6}{score:>5}" for position, player, score in top(scores, n)]
