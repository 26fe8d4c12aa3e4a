"""Checking typed answers against the solutions on flashcards."""


def comparable(text: str) -> str:
    """Form of an answer used for comparison: case-insensitive, whitespace collapsed."""
    return " ".join(text.split()).lower()


def is_correct(typed: str, solution: str) -> bool:
    """A typed answer is correct if it matches the solution up to case and spacing."""
    return comparable(typed) == comparable(solution)
