"""Many sessions at once against one memory file and one checkpoint file."""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from astra_memory.scenarios import load_scenario
from astra_memory.session import open_agent, resume_session, scenario_task, start_session
from tests.conftest import ROOT, cli_env

SESSIONS = 8


@pytest.mark.slow
def test_eight_processes_share_one_memory_and_one_checkpoint_file(settings):
    env = cli_env()
    threads = [f"load-{i}" for i in range(SESSIONS)]
    procs = [subprocess.Popen([sys.executable, "-m", "astra_memory", "run", ("alpha", "beta")[i % 2],
                               "--thread-id", tid, "--json"], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i, tid in enumerate(threads)]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * SESSIONS, [o[1][-2000:] for o in outputs]
    assert not any("locked" in out + err for out, err in outputs)
    with open_agent(settings) as agent:
        records = list(agent.memory.iter_records())
        assert sorted(r.session_id for r in records) == sorted(threads)  # each confirmed fix exactly once
        for tid in threads:
            final, ran = resume_session(agent, tid)
            assert final["status"] == "fixed" and ran is False


@pytest.mark.slow
def test_one_process_runs_eight_threads_of_the_compiled_graph(agent, settings):
    tasks = [scenario_task(load_scenario(("alpha", "beta")[i % 2]), settings, f"inproc-{i}") for i in range(SESSIONS)]
    with ThreadPoolExecutor(max_workers=SESSIONS) as pool:
        finals = list(pool.map(lambda task: start_session(agent, task), tasks))
    assert [f["status"] for f in finals] == ["fixed"] * SESSIONS
    stored = sorted(r.session_id for r in agent.memory.iter_records())
    assert stored == sorted(t["session_id"] for t in tasks)
    assert sorted(f["stored_memory_id"] for f in finals) == sorted(r.memory_id for r in agent.memory.iter_records())
