"""A test file whose name is not UTF-8 (Latin-1 bytes, as old projects have): pytest keeps those
bytes as lone surrogates in the test's id, which no checkpoint, log or memory row can hold. On main
the session stopped with status ``error`` at its first checkpoint (outside round 9 case 08). The id
is kept with the byte escaped, the same in every run, and the session goes on. Real graph, real pytest."""

from __future__ import annotations

import os

from astra_memory.session.run import start_session
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, task_with_script


def test_a_session_on_a_project_with_a_non_utf8_test_file_name_is_fixed(agent, settings):
    task = task_with_script(settings, "t-latin1", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
    with open(os.path.join(os.fsencode(task["workspace"]), b"tests", b"test_caf\xe9.py"), "w") as f:
        f.write("def test_ok():\n    assert True\n")
    final = start_session(agent, task)
    assert final["status"] == "fixed", final.get("reason")
    assert final["stored_memory_id"]
    observed = final["test_runs"][0]["tests"]
    assert observed["tests/test_caf\\xe9.py::test_ok"] == "passed"
