"""Builds the episode list of a podcast feed."""

from dataclasses import dataclass

from app.query import feed_options


@dataclass(frozen=True)
class Episode:
    title: str
    explicit: bool = False
    bonus: bool = False


def render_feed(episodes: list[Episode], query: str = "") -> list[str]:
    """Titles of the episodes the request asks for, in the given (newest first) order."""
    options = feed_options(query)
    chosen = [
        episode for episode in episodes
        if (options["explicit"] or not episode.explicit) and (options["bonus"] or not episode.bonus)
    ]
    return [episode.title for episode in chosen[: options["limit"]]]
