"""The board holding all cards of a team."""

from app.tasks import Task


class Board:
    def __init__(self):
        self.cards: list[Task] = []

    def add(self, title: str) -> Task:
        card = Task(title)
        self.cards.append(card)
        return card

    def with_label(self, label: str) -> list[str]:
        """Titles of the cards carrying the label, in board order."""
        return [card.title for card in self.cards if label in card.labels]
