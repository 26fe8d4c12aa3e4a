"""A seeded subset of the jittered crash matrix (astra_memory/jittered_kills.py; the whole matrix is
scripts/crash_matrix.py): real sessions SIGKILLed a seeded 0-300 ms after a progress line, and
inside a checkpoint's write, resumed in new processes, must end as the uncrashed run does."""

from __future__ import annotations

import random

import pytest

from astra_memory.jittered_kills import LINES, MAX_DELAY_MS, line_kills, point_kills, run_matrix, two_attempt_scenario
from tests.conftest import cli_env

SEED = 32


def test_the_plan_covers_every_line_at_seeded_delays():
    kills = line_kills(random.Random(SEED), 3)
    assert len(kills) == 3 * len(LINES) == 60
    assert {(k.line, k.nth) for k in kills} == {(k.line, k.nth) for k in line_kills(random.Random(1), 1)}
    assert all(0 <= k.delay_ms <= MAX_DELAY_MS for k in kills)
    assert [k.delay_ms for k in kills] == [k.delay_ms for k in line_kills(random.Random(SEED), 3)]  # seeded
    assert len({k.delay_ms for k in kills}) > 20  # jittered, not one moment


@pytest.mark.slow
def test_seeded_kills_end_as_the_uncrashed_run(tmp_path):
    rng = random.Random(SEED)
    # The header (before prepare's checkpoint), one node's line at random, one checkpoint's write.
    lines = line_kills(rng, 1)
    kills = [lines[0], rng.choice(lines[2:]), *point_kills(rng, 1, 21, 20)[:1]]
    assert kills[0].line == "start" and kills[2].point.startswith("inside:put:#")
    reference, outcomes = run_matrix(kills, two_attempt_scenario(tmp_path / "scenario"), tmp_path / "runs",
                                     cli_env(ASTRA_EMBEDDINGS="hash"))
    assert reference.status == "fixed" and not reference.errors and reference.records == [reference.stored]
    for outcome in outcomes:
        assert outcome.failures(reference) == [], outcome.kill.name
        assert outcome.landed or outcome.kill.point is None, f"{outcome.kill.name} did not kill the session"
    assert outcomes[2].landed

