"""Ranking of players on the arcade leaderboard."""


def ranked(scores: dict[str, int]) -> list[tuple[str, int]]:
    """Players sorted by score (highest first); ties are broken alphabetically."""
    return sorted(scores.items(), key=lambda item: (-item[1], item[0]))


def top(scores: dict[str, int], n: int) -> list[tuple[int, str, int]]:
    """The n best players as (position, player, score), positions starting at 1."""
    board = []
    for position, (player, score) in enumerate(ranked(scores), start=1):
        if position >= n:
            break
        board.append((position, player, score))
    return board
