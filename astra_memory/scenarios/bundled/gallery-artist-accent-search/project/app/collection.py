"""The works in the gallery's collection and the search on the visitor terminal."""

from dataclasses import dataclass

from app.textkeys import search_key


@dataclass(frozen=True)
class Artwork:
    title: str
    artist: str
    year: int


class Collection:
    def __init__(self, works: list[Artwork]):
        self.works = list(works)

    def search(self, query: str) -> list[str]:
        """Titles of the works whose title or artist contains the query, in catalogue order."""
        wanted = search_key(query)
        return [work.title for work in self.works
                if wanted in search_key(work.title) or wanted in search_key(work.artist)]
