"""Settings read from the environment. Nothing here opens a file or a connection."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as exc:
        from astra_memory.errors import ConfigurationError

        raise ConfigurationError(f"{name}={raw!r} is not a number") from exc


# Calibrated on measured MiniLM scores (scripts/calibrate_min_score.py, numbers in README):
# unrelated symptom/fix pairs stay below it, related pairs across projects stay above it.
DEFAULT_MIN_SCORE = 0.12


@dataclass(frozen=True)
class Settings:
    """Where data lives and which model and embeddings to use."""

    home: Path = field(default_factory=lambda: Path(os.environ.get("ASTRA_HOME", ".astra")))
    model: str = field(default_factory=lambda: os.environ.get("ASTRA_MODEL", "scripted"))
    # "minilm" (the packaged all-MiniLM-L6-v2) or "hash" (deterministic, for tests only).
    embeddings: str = field(default_factory=lambda: os.environ.get("ASTRA_EMBEDDINGS", "minilm"))
    embedding_model_path: str | None = field(
        default_factory=lambda: os.environ.get("ASTRA_EMBEDDING_MODEL_PATH") or None
    )
    min_score: float = field(default_factory=lambda: _env_float("ASTRA_MIN_SCORE", DEFAULT_MIN_SCORE))

    @property
    def checkpoint_path(self) -> Path:
        return self.home / "checkpoints.sqlite"

    @property
    def memory_path(self) -> Path:
        return self.home / "memory.sqlite"

    @property
    def runs_dir(self) -> Path:
        return self.home / "runs"

    def run_dir(self, thread_id: str) -> Path:
        return self.runs_dir / thread_id

    def ensure_home(self) -> Path:
        self.home.mkdir(parents=True, exist_ok=True)
        return self.home
