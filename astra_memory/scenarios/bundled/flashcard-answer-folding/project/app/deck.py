"""A deck of flashcards and a practice session over it."""

from app.answers import is_correct


class PracticeSession:
    def __init__(self, cards: dict[str, str]):
        self.cards = cards  # prompt -> solution
        self.correct: list[str] = []
        self.wrong: list[str] = []

    def answer(self, prompt: str, typed: str) -> bool:
        ok = is_correct(typed, self.cards[prompt])
        (self.correct if ok else self.wrong).append(prompt)
        return ok

    def score(self) -> str:
        return f"{len(self.correct)}/{len(self.correct) + len(self.wrong)}"
