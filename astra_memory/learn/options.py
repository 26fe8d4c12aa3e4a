"""What a learn is asked, with its defaults: light (no git, no graph), so the CLI's help and the
commands that never learn import nothing heavy. Which commits are candidates: learn/history.py."""

from __future__ import annotations

from dataclasses import asdict, dataclass

THREAD_PREFIX = "learn-"  # a learn's thread id: `astra-memory resume` tells a learn from a session by it
DEFAULT_TEST_COMMAND = "python -m pytest -q"
DEFAULT_TIMEOUT_S = 120.0
DEFAULT_MESSAGE = r"\b(fix|fixe[sd]|fixing|bug|regression|broken|incorrect|wrong|crash|error)"
DEFAULT_SOURCE = ("*.py",)
DEFAULT_EXCLUDE = ("docs/*", "doc/*", "examples/*")
DEFAULT_MAX_LINES = 200
DEFAULT_MAX_FILES = 10


def is_learn_thread(thread_id: str) -> bool:
    return thread_id.startswith(THREAD_PREFIX)


@dataclass(frozen=True)
class Filters:
    """What makes a commit a candidate fix (learn/history.py); every field is a CLI option."""

    message: str = DEFAULT_MESSAGE
    source: tuple[str, ...] = DEFAULT_SOURCE
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    max_lines: int = DEFAULT_MAX_LINES
    max_files: int = DEFAULT_MAX_FILES

    def to_dict(self) -> dict:
        return {**asdict(self), "source": list(self.source), "exclude": list(self.exclude)}

    @classmethod
    def from_dict(cls, data: dict) -> Filters:
        return cls(message=data["message"], source=tuple(data["source"]), exclude=tuple(data["exclude"]),
                   max_lines=int(data["max_lines"]), max_files=int(data["max_files"]))


DEFAULT_FILTERS = Filters()
