"""Small helpers every bench shares: timing statistics, the results folder, rich progress.

Kept apart from the benches so that each bench module stays about what it measures.
"""

from __future__ import annotations

import json
import math
import os
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

DEFAULT_RESULTS_DIR = Path("results")


def results_dir(bench: str, out: str | Path | None) -> Path:
    """``--out`` if given, else ``./results/<bench>/``; created if missing."""
    path = Path(out) if out else DEFAULT_RESULTS_DIR / bench
    path.mkdir(parents=True, exist_ok=True)
    return path


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation, like numpy's default."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(rank), math.ceil(rank)
    if low == high:
        return ordered[low]
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary_ms(seconds: list[float]) -> dict[str, float]:
    """p50/p95/mean/min/max of durations given in seconds, reported in milliseconds."""
    ms = [s * 1000.0 for s in seconds]
    if not ms:
        return {"n": 0}
    return {"n": len(ms), "p50_ms": round(percentile(ms, 50), 3), "p95_ms": round(percentile(ms, 95), 3),
            "mean_ms": round(sum(ms) / len(ms), 3), "min_ms": round(min(ms), 3), "max_ms": round(max(ms), 3)}


@contextmanager
def stopwatch() -> Iterator[list[float]]:
    """``with stopwatch() as t: ...`` then ``t[0]`` is the elapsed wall time in seconds."""
    box: list[float] = []
    started = time.perf_counter()
    try:
        yield box
    finally:
        box.append(time.perf_counter() - started)


def machine_info() -> dict[str, Any]:
    """What the figures were measured on, so that a reader can compare like with like."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count(),
            "load_average_1_5_15": load, "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    return path


def write_table_report(folder: Path, name: str, result: dict, command: str, lines: list[str]) -> dict[str, Any]:
    """``<name>.json`` (the result and the command that made it) and ``<name>.md`` (``lines``) in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({**result, "command": command}, indent=2), encoding="utf-8")
    (folder / f"{name}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"markdown": str(folder / f"{name}.md"), "json": str(folder / f"{name}.json"), "png": []}


def make_progress(enabled: bool = True):
    """A rich Progress on stderr (stdout stays clean for ``--json``), or a no-op stand-in."""
    if not enabled:
        return _NoProgress()
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=False)


class _NoProgress:
    """Same surface as rich's Progress, doing nothing (tests, library callers)."""

    def __enter__(self) -> "_NoProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        return 0

    def update(self, task_id: int, **_: Any) -> None:
        return None

    def advance(self, task_id: int, advance: float = 1) -> None:
        return None
