"""The jittered crash matrix (issue 32, item 6): SIGKILL a real session at a seeded random moment,
resume it in a new process, and compare it with an uncrashed run of the same scenario.

Two kinds of kill. A *line* kill waits for one progress line of `astra-memory run` on the session's
stderr (``start``: the ``session ...`` header, before prepare; then each node's ``· NODE`` line, the
N-th time that node prints) and SIGKILLs the process a seeded 0-300 ms later, wherever it then is:
inside a node, a test subprocess, a model call or a checkpoint write. A *point* kill uses the
checkpointer's own points (astra_memory/crash.py): ``inside:put:#N`` and ``inside:writes:#N`` kill
with a checkpoint's (or a node's writes') statements sent and not committed, ``writes:NODE`` between
a node's saved writes and the next checkpoint.

Every session must end as the uncrashed one does: ``fixed``, exactly one memory record (the
session's own), the workspace's source byte-identical, the same edits. A kill that landed after the
process had already finished is counted as not landed, never as a pass of the matrix.
``scripts/crash_matrix.py`` runs the whole matrix; tests/test_crash_jitter.py a seeded subset.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astra_memory.scenarios import load_scenario
from astra_memory.session.run import open_agent
from astra_memory.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
THREAD = "jittered"
MAX_DELAY_MS = 300
MAX_RESUMES = 3

# A two-attempt solution: the first edit drops blank entries but keeps the spaces, so the first
# finish() fails its tests; the second edit strips, and the second finish() passes.
TWO_ATTEMPTS = '''
[[solution]]
tool = "read_file"
[solution.args]
path = "app/settings.py"

[[solution]]
tool = "state_diagnosis"
[solution.args]
error_type = "AssertionError"
cause = "Comma-separated origins keep the whitespace around each entry after splitting."
files = ["app/settings.py"]

[[solution]]
tool = "apply_edit"
[solution.args]
path = "app/settings.py"
old_text = "if origin]"
new_text = "if origin.strip()]"

[[solution]]
tool = "finish"
[solution.args]
error_type = "AssertionError"
fix_description = "Drop blank entries."

[[solution]]
tool = "apply_edit"
[solution.args]
path = "app/settings.py"
old_text = "[origin for origin"
new_text = "[origin.strip() for origin"

[[solution]]
tool = "finish"
[solution.args]
error_type = "AssertionError"
fix_description = "Strip whitespace around comma-separated values and drop blank entries."
'''
# The nodes of that session in the order they run (each prints one progress line).
NODE_SEQUENCE = ["observe", "memory_search", "replay", "investigate", "tools", "investigate", "diagnosis_search",
                 "investigate", "edit",
                 "investigate", "test", "investigate", "edit", "investigate", "test", "confirm", "store", "report"]
# The progress lines a kill can follow: the session header, prepare, then every node.
LINES = ["start", "prepare", *NODE_SEQUENCE]
SOURCE = Path("app") / "settings.py"


def two_attempt_scenario(root: Path) -> Path:
    """The bundled ``alpha`` scenario with the two-attempt solution, written under ``root``."""
    shutil.copytree(load_scenario("alpha").template, root / "project")
    head = (load_scenario("alpha").root / "scenario.toml").read_text().split("[[solution]]")[0]
    (root / "scenario.toml").write_text(head.replace('name = "alpha"', 'name = "alpha-two-attempts"') + TWO_ATTEMPTS)
    return root


@dataclass(frozen=True)
class Kill:
    """One planned kill: after progress line ``line`` (its ``nth`` appearance) plus ``delay_ms``, or
    at the checkpointer's point ``point``."""

    label: str
    line: str | None = None
    nth: int = 1
    delay_ms: int = 0
    point: str | None = None

    @property
    def name(self) -> str:
        if self.point:
            return self.point
        return f"{self.line}#{self.nth}+{self.delay_ms}ms"


def line_kills(rng: random.Random, per_line: int, lines: Iterable[str] = LINES) -> list[Kill]:
    """``per_line`` kills after every progress line, each at its own seeded delay."""
    seen: dict[str, int] = {}
    kills = []
    for line in lines:
        seen[line] = seen.get(line, 0) + 1
        kills += [Kill(line, line, seen[line], rng.randint(0, MAX_DELAY_MS)) for _ in range(per_line)]
    return kills


def node_kills(rng: random.Random, per_node: int, lines: Iterable[str] = LINES) -> list[Kill]:
    """``per_node`` kills for every node (and the header), each after one of that node's progress
    lines chosen at random (a node that runs several times: any of its runs), at its own delay."""
    runs: dict[str, int] = {}
    for line in lines:
        runs[line] = runs.get(line, 0) + 1
    return [Kill(line, line, rng.randint(1, count), rng.randint(0, MAX_DELAY_MS))
            for line, count in runs.items() for _ in range(per_node)]


def point_kills(rng: random.Random, count: int, puts: int, writes: int) -> list[Kill]:
    """``count`` kills inside checkpoint writes and inside node-writes writes, at seeded positions
    among the ``puts`` checkpoints and ``writes`` node writes of an uncrashed session."""
    return ([Kill("inside:put", point=f"inside:put:#{rng.randint(1, puts)}") for _ in range(count)]
            + [Kill("inside:writes", point=f"inside:writes:#{rng.randint(1, writes)}") for _ in range(count)])


@dataclass
class Outcome:
    kill: Kill
    landed: bool = False
    resumes: int = 0
    resumed_work: int = 0
    status: str | None = None
    records: list[str] = field(default_factory=list)
    stored: str | None = None
    source: bytes | None = None
    edits: list[str] = field(default_factory=list)
    confirmed: bool = False
    errors: list[str] = field(default_factory=list)

    def failures(self, reference: Outcome) -> list[str]:
        """What differs from the uncrashed ``reference`` (empty: the session ended as it would have)."""
        wrong = list(self.errors)
        if self.status != "fixed":
            wrong.append(f"status {self.status}")
        if self.records != [self.stored] or self.stored is None:
            wrong.append(f"{len(self.records)} records, stored {self.stored}")
        if self.source != reference.source:
            wrong.append("source differs from the uncrashed run")
        if self.edits != reference.edits:
            wrong.append(f"{len(self.edits)} edits differ from the uncrashed run's {len(reference.edits)}")
        if not self.confirmed:
            wrong.append("not confirmed in a fresh copy")
        if self.resumes > 1:
            wrong.append(f"{self.resumes} resumes")
        return wrong


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "astra_memory", *args]


def _killed_run(kill: Kill, scenario: Path, env: Mapping[str, str]) -> bool:
    """Run the session until ``kill`` lands; whether the process died of our SIGKILL."""
    env = {**env, **({"ASTRA_CRASH_AT": kill.point} if kill.point else {})}
    # Not --json: that mode prints no progress lines.
    proc = subprocess.Popen(_command("run", str(scenario), "--thread-id", THREAD), cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    timer = None
    seen: dict[str, int] = {}
    assert proc.stderr is not None
    for raw in proc.stderr:
        words = raw.split()
        line = "start" if words[:1] == ["session"] else words[1] if words[:1] == ["·"] and len(words) > 1 else None
        if line is None:
            continue
        seen[line] = seen.get(line, 0) + 1
        if timer is None and kill.line == line and seen[line] == kill.nth:
            timer = threading.Timer(kill.delay_ms / 1000, _sigkill, (proc,))
            timer.start()
    if timer is not None:
        timer.join()
    return proc.wait(timeout=300) == -signal.SIGKILL


def _sigkill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _read(outcome: Outcome, home: Path, url: str | None) -> None:
    """The thread, its memory and its source as a new process sees them."""
    settings = Settings(home=home, embeddings="hash", database_url=url)
    with open_agent(settings) as agent:
        values = agent.graph.get_state(agent.config(THREAD)).values
        outcome.records = [r.memory_id for r in agent.memory.iter_records()]
    outcome.status, outcome.stored = values.get("status"), values.get("stored_memory_id")
    outcome.edits = [e["after_sha256"] for e in values.get("edits") or []]
    outcome.confirmed = bool((values.get("confirm") or {}).get("passed"))
    path = settings.run_dir(THREAD) / "workspace" / SOURCE
    outcome.source = path.read_bytes() if path.is_file() else None


def run_kill(kill: Kill | None, scenario: Path, home: Path, env: Mapping[str, str], url: str | None = None) -> Outcome:
    """One session under its own ``home`` (and, on PostgreSQL, its own database ``url``): killed as
    planned, then `resume` in new processes until it ends (at most MAX_RESUMES); ``None`` runs the
    uncrashed reference."""
    env = {**env, "ASTRA_HOME": str(home), "ASTRA_EMBEDDINGS": "hash", **({"ASTRA_DATABASE_URL": url} if url else {})}
    env.pop("ASTRA_CRASH_AT", None)
    outcome = Outcome(kill or Kill("uncrashed"))
    if kill is None:
        done = subprocess.run(_command("run", str(scenario), "--thread-id", THREAD, "--json"), cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            outcome.errors.append(f"uncrashed run exited {done.returncode}: {done.stderr[-300:]}")
    else:
        outcome.landed = _killed_run(kill, scenario, env)
        while outcome.resumes < MAX_RESUMES:
            outcome.resumes += 1
            resumed = subprocess.run(_command("resume", THREAD, "--json"), cwd=ROOT, env=env, capture_output=True,
                                     text=True, timeout=300)
            summary = _json(resumed.stdout)
            if resumed.returncode == 0 and summary.get("status"):
                outcome.resumed_work += bool(summary.get("resumed"))
                break
            outcome.errors.append(f"resume {outcome.resumes} exited {resumed.returncode}: "
                                  f"{' '.join(resumed.stderr.split())[-300:]}")
    _read(outcome, home, url)
    return outcome


def _json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def checkpoint_counts(home: Path, url: str | None = None) -> tuple[int, int]:
    """How many checkpoints and node writes an (uncrashed) session under ``home`` saved."""
    settings = Settings(home=home, embeddings="hash", database_url=url)
    with open_agent(settings) as agent:
        config = {"configurable": {"thread_id": THREAD}}
        saved = list(agent.graph.checkpointer.list(config))
    return len(saved), sum(len({w[0] for w in c.pending_writes or ()}) for c in saved)


def table(outcomes: Iterable[Outcome], reference: Outcome, backend: str) -> str:
    """One row per node or point: kills planned and landed, how many ended fixed, with exactly one
    record, the resumes run (and how many ran work), and the failures (kill name: what differed)."""
    rows: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        rows.setdefault(outcome.kill.label, []).append(outcome)
    head = f"{'backend':<8} {'node':<17} {'kills':>7} {'fixed':>5} {'rec==1':>6} {'resumes':>9}  failures"
    lines = [head, "-" * len(head)]
    for label, group in rows.items():
        landed = sum(o.landed for o in group)
        fixed = sum(o.status == "fixed" for o in group)
        one = sum(o.records == [o.stored] and o.stored is not None for o in group)
        resumes = f"{sum(o.resumes for o in group)}/{sum(o.resumed_work for o in group)}"
        failed = [f"{o.kill.name}: {'; '.join(w)}" for o in group if (w := o.failures(reference))]
        lines.append(f"{backend:<8} {label:<17} {landed:>3}/{len(group):<3} {fixed:>5} {one:>6} {resumes:>9}  "
                     f"{len(failed)}")
        lines += [f"    {f}" for f in failed]
    return "\n".join(lines)


def run_matrix(kills: list[Kill], scenario: Path, base: Path, env: Mapping[str, str], *, workers: int = 2,
               new_url: Callable[[], str] | None = None, reference: Outcome | None = None,
               on_outcome: Callable[[Outcome], None] | None = None) -> tuple[Outcome, list[Outcome]]:
    """The uncrashed reference (unless given) and every kill, ``workers`` sessions at a time, each in
    its own home (and database): none shares a thread or a record. ``on_outcome`` sees each as it ends."""
    from concurrent.futures import ThreadPoolExecutor

    def one(index: int, kill: Kill | None) -> Outcome:
        outcome = run_kill(kill, scenario, base / f"k{index}", env, new_url() if new_url else None)
        if on_outcome is not None:
            on_outcome(outcome)
        return outcome

    with ThreadPoolExecutor(max_workers=workers) as pool:
        ran = pool.submit(one, 0, None) if reference is None else None
        futures = [pool.submit(one, i, kill) for i, kill in enumerate(kills, start=1)]
        return (ran.result() if ran else reference), [f.result() for f in futures]
