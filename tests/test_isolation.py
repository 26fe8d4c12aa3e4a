"""Test processes live and die with their step: real subprocesses, real signals, checked in /proc."""

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from astra_memory.testrun.isolation import isolation_mode
from astra_memory.testrun.run import MAX_OUTPUT_BYTES, run_tests
from tests.conftest import ROOT

# The fallback is tested everywhere; the PID namespace wherever `unshare` is allowed (it is in CI and here).
MODES = ["subreaper"] + (["pid-namespace"] if isolation_mode() == "pid-namespace" else [])
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process containment is Linux-only")


def alive(marker: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line holds ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found


def wait_until(check, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def spawner(tmp_path: Path, marker: str, *, then: str) -> str:
    """A test command that starts a setsid'd `sleep`, a double-forked daemon and a plain child, then ``then``."""
    (tmp_path / "spawn.py").write_text(textwrap.dedent(f"""
        import os, subprocess, sys, time
        sleeper = [sys.executable, "-c", "import time; time.sleep(1000)", {marker!r}]
        subprocess.Popen(["setsid", *sleeper])                 # a new session: escapes a process group
        subprocess.Popen(sleeper, start_new_session=True)
        if os.fork() == 0:                                     # a classic daemon: double fork, setsid
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, sleeper)
            os._exit(0)
        subprocess.Popen(sleeper)
        open("ready", "w").close()
        {then}
    """))
    return f"{sys.executable} spawn.py"


@pytest.mark.parametrize("mode", MODES)
def test_detached_children_do_not_survive_the_step(tmp_path, mode):
    marker = f"astra-{uuid.uuid4().hex}"
    run = run_tests(tmp_path, spawner(tmp_path, marker, then="time.sleep(0.5)"), isolation=mode)
    assert run.passed and (tmp_path / "ready").exists()
    assert wait_until(lambda: not alive(marker), 5), f"survivors: {alive(marker)}"


@pytest.mark.parametrize("mode", MODES)
def test_the_timeout_kills_every_descendant(tmp_path, mode):
    marker = f"astra-{uuid.uuid4().hex}"
    run = run_tests(tmp_path, spawner(tmp_path, marker, then="time.sleep(1000)"), timeout_s=5, isolation=mode)
    assert run.timed_out and not run.passed and run.exit_code == 124
    assert wait_until(lambda: not alive(marker), 5), f"survivors: {alive(marker)}"


@pytest.mark.parametrize("mode", MODES)
def test_endless_output_is_stopped_at_the_bound(tmp_path, mode):
    run = run_tests(tmp_path, "yes", timeout_s=60, isolation=mode)
    assert run.output_overflow and not run.timed_out and not run.passed
    assert MAX_OUTPUT_BYTES <= len(run.output) < MAX_OUTPUT_BYTES + 1_000
    assert run.duration_s < 30  # stopped by the bound, not by the timeout


@pytest.mark.parametrize("mode", MODES)
def test_tests_die_when_the_agent_is_killed(tmp_path, mode):
    marker = f"astra-{uuid.uuid4().hex}"
    command = spawner(tmp_path, marker, then="time.sleep(1000)")
    agent = subprocess.Popen(
        [sys.executable, "-c", "import sys; from astra_memory.testrun.run import run_tests; "
                               "run_tests(sys.argv[1], sys.argv[2], timeout_s=300, isolation=sys.argv[3])",
         str(tmp_path), command, mode], cwd=ROOT)
    try:
        assert wait_until(lambda: (tmp_path / "ready").exists() and len(alive(marker)) >= 4, 60), alive(marker)
        agent.send_signal(signal.SIGKILL)
        agent.wait()
        assert wait_until(lambda: not alive(marker), 10), f"survivors: {alive(marker)}"
    finally:
        agent.kill()
        for pid in alive(marker):  # never leave a failed test's processes behind
            os.kill(pid, signal.SIGKILL)


def test_a_session_whose_tests_print_without_end_fails_with_the_reason(agent, settings, tmp_path):
    from astra_memory.session.run import start_session, workspace_task

    (tmp_path / "proj").mkdir()
    final = start_session(agent, workspace_task(tmp_path / "proj", "yes", settings, "t-yes"))
    assert final["status"] == "failed" and "output passed 200000 bytes" in final["reason"]


# -- issue 32 (a): the confirming run's private root ------------------------------------------------

from astra_memory.testrun.isolation import degraded_reason  # noqa: E402
from astra_memory.testrun.private_root import NETWORK_ENV  # noqa: E402
from tests.helpers import OUTSIDE_TMP  # noqa: E402

PRIVATE = pytest.mark.skipif(bool(degraded_reason()), reason=f"no private root here: {degraded_reason()}")
WORLD = """import errno
import os
import socket

import pytest


def test_it_sees_only_its_folder():
    assert sorted(os.listdir("..")) == [{name!r}]  # the sibling and the planted file are gone
    assert not os.path.exists({marker!r})  # /tmp is private
    assert not os.path.exists("/proc/{agent}/environ")  # the agent's process is not in its /proc


def test_what_it_writes_outside_does_not_survive():
    open("/tmp/written-in-tmp", "w").close()  # a private tmpfs
    open({outside!r}, "w").close()  # beside its folder: a tmpfs too
    with pytest.raises(OSError) as raised:  # anywhere else: read-only
        open({elsewhere!r}, "w").close()
    assert raised.value.errno == errno.EROFS
    open("written-inside", "w").close()


def test_the_network_is_off_but_loopback_works():
    if os.environ.get("EXPECT_NETWORK") != "1":
        with pytest.raises(OSError) as raised:
            socket.create_connection(("192.0.2.1", 9), timeout=3)
        assert raised.value.errno == errno.ENETUNREACH
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    socket.create_connection(server.getsockname(), timeout=3).close()
"""


@PRIVATE
@pytest.mark.parametrize("under", ["tmp", "home"])
def test_a_private_run_sees_only_its_folder_and_leaves_nothing_outside(tmp_path, under):
    import shutil
    import tempfile

    base = tmp_path if under == "tmp" else Path(tempfile.mkdtemp(prefix=".private-", dir=OUTSIDE_TMP))
    try:
        parent = base / "run"
        folder, sibling = parent / "confirm", parent / "workspace"
        (folder / "tests").mkdir(parents=True)
        sibling.mkdir()
        (parent / "tox.ini").write_text("[pytest]\naddopts = -p no_such_plugin\n")
        marker = Path(tempfile.mkstemp(prefix="astra-private-marker-", dir="/tmp")[1])
        outside, elsewhere = parent / "written-outside", OUTSIDE_TMP / f".private-elsewhere-{uuid.uuid4().hex}"
        (folder / "tests" / "test_world.py").write_text(WORLD.format(
            name="confirm", marker=str(marker), agent=os.getpid(), outside=str(outside), elsewhere=str(elsewhere)))
        run = run_tests(folder, "python -m pytest -q -p no:cacheprovider tests", private=True)
        assert run.passed, run.output
        assert run.counts == {"passed": 3} and "private root" not in run.outcome
        assert (folder / "written-inside").exists()
        assert not outside.exists() and not elsewhere.exists() and not Path("/tmp/written-in-tmp").exists()
        marker.unlink()
    finally:
        if under == "home":
            shutil.rmtree(base)


HIDE_WORLD = """import os


def test_the_hidden_folders_are_empty_but_what_it_keeps_is_there():
    assert not os.path.exists({planted!r})  # written into the data home by an earlier, shared run
    assert not os.path.exists({workspace!r})  # the session's workspace, elsewhere
    import kept_lib  # on the step's PYTHONPATH, inside the hidden home: brought back
    assert kept_lib.VALUE == 7
"""


@PRIVATE
def test_a_confirming_run_finds_the_workspace_and_the_homes_empty(tmp_path):
    """Issue 32 (a), from our own outside round: a test run could write a module into our data home (or
    the user's home, or leave it in the workspace) that the fix then imports by an absolute path. The
    confirming run hides those folders (and the runs before it are private too: what they write
    outside the workspace does not survive them); what the step is given to keep (its PYTHONPATH
    here) and its own folder come back."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix=".private-hide-", dir=OUTSIDE_TMP))
    try:
        home, workspace = base / "astra-home", base / "user" / "project"
        folder, kept = home / "runs" / "t-1" / "fresh", home / "lib"
        for path in (folder / "tests", kept, workspace):
            path.mkdir(parents=True)
        (home / "planted.py").write_text("VALUE = 1\n")
        (kept / "kept_lib.py").write_text("VALUE = 7\n")
        (folder / "tests" / "test_world.py").write_text(
            HIDE_WORLD.format(planted=str(home / "planted.py"), workspace=str(workspace)))
        command, env = "python -m pytest -q -p no:cacheprovider tests", {"PYTHONPATH": f"{folder}:{kept}"}
        shared = run_tests(folder, command, env=env, private=True)
        assert not shared.passed and "1 failed" in shared.outcome  # without hide: the planted file is seen
        run = run_tests(folder, command, env=env, private=True, hide=[str(workspace.parent), str(home)])
        assert run.passed, run.output
    finally:
        shutil.rmtree(base)


def test_hidden_points_go_outermost_first_and_skip_what_is_inside_another():
    import shutil
    import tempfile

    from astra_memory.testrun.private_root import hidden_points

    base = Path(tempfile.mkdtemp(prefix=".private-points-", dir=OUTSIDE_TMP))
    try:
        home = base / "home"
        folder, kept, inner = home / "runs" / "t" / "fresh", home / "venv", home / "venv" / "cache"
        for path in (folder, inner):
            path.mkdir(parents=True)
        points = hidden_points(str(folder), [str(kept)], [str(inner), str(home), "/", str(folder / "sub"),
                                                          str(base / "missing")])
        assert points[-2:] == [str(home), str(inner)]  # the kept venv brings the inner point back
        assert str(folder.parent) not in points  # inside the hidden home, which holds only the path down
        assert "/" not in points and str(folder / "sub") not in points and str(base / "missing") not in points
    finally:
        shutil.rmtree(base)


def _venv_that_imports_us(folder: Path, *, symlinks: bool) -> Path:
    """A new venv (no pip) whose interpreter imports this checkout and the suite's packages; its python."""
    import site
    import venv

    venv.EnvBuilder(symlinks=symlinks).create(folder)
    purelib = next((folder / "lib").glob("python*/site-packages"))
    (purelib / "ours.pth").write_text("\n".join([str(ROOT), *site.getsitepackages()]) + "\n")
    return folder / "bin" / "python"


@PRIVATE
def test_an_interpreter_copied_into_its_venv_keeps_its_private_root(tmp_path):
    """A venv made without symlinks (``venv.EnvBuilder()``'s default, as a newcomer's fresh venv is) has
    its interpreter, a running executable, inside the kept venv folder: binding it back must not open
    it for writing (ETXTBSY once failed every step of the demo in such a venv)."""
    python = _venv_that_imports_us(tmp_path / "venv", symlinks=False)
    assert not python.is_symlink()
    (tmp_path / "project").mkdir()
    script = ("import sys; from pathlib import Path; from astra_memory.testrun.isolation import start_step\n"
              "with start_step([sys.executable, '-c', 'print(\"in its root\")'], cwd=Path(sys.argv[1]), "
              "env={'PATH': '/usr/bin:/bin'}, private_root=[sys.prefix, sys.executable]) as step:\n"
              "    out, _ = step.collect(timeout_s=30, max_bytes=10_000)\n"
              "print(step.exit_code, out.decode())\n")
    done = subprocess.run([str(python), "-c", script, str(tmp_path / "project")], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "in", "its", "root"], done.stdout


@pytest.mark.skipif(isolation_mode() != "pid-namespace", reason="needs a PID namespace")
def test_the_private_root_probe_works_from_a_venv_under_tmp(tmp_path):
    """The probe keeps what a run keeps (the venv too): run from a venv under /tmp, whose interpreter is
    a link the private /tmp hides, it once failed, and every run of that process was degraded."""
    done = subprocess.run([str(_venv_that_imports_us(tmp_path / "venv", symlinks=True)), "-c",
                           "from astra_memory.testrun.isolation import degraded_reason; print(repr(degraded_reason()))"],
                          capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "''", done.stdout


@PRIVATE
def test_the_user_can_allow_the_network(tmp_path, monkeypatch):
    monkeypatch.setenv(NETWORK_ENV, "1")
    from astra_memory.testrun.isolation import start_step

    with start_step([sys.executable, "-c", "import socket; print(len(socket.if_nameindex()))"], cwd=tmp_path,
                    env={"PATH": "/usr/bin:/bin"}, private_root=[sys.prefix]) as step:
        out, _ = step.collect(timeout_s=30, max_bytes=10_000)
    shared = len(socket_interfaces())
    assert int(out.decode().strip()) == shared  # the host's interfaces, not a new namespace's loopback


def socket_interfaces() -> list:
    import socket

    return socket.if_nameindex()


@pytest.mark.skipif(isolation_mode() != "pid-namespace", reason="needs a PID namespace")
def test_a_test_step_cannot_read_the_agents_environment(tmp_path):
    """Any test run (observe's, the workspace's): the agent's pid is not in the step's /proc, so its
    environment (API keys) cannot be read from /proc/<pid>/environ."""
    (tmp_path / "read.py").write_text(
        f"import pathlib, sys\ntry:\n    text = pathlib.Path('/proc/{os.getpid()}/environ').read_bytes()\n"
        "except OSError:\n    sys.exit(3)\nprint('read', len(text))\n")
    run = run_tests(tmp_path, f"{sys.executable} read.py")
    assert run.exit_code == 3 and "read" not in run.output, run.output


def test_without_namespaces_a_private_run_says_so_and_still_pins_the_configuration(tmp_path):
    """Degraded mode: no private root, and the outcome says it; a tox.ini above is still not read."""
    folder = tmp_path / "run" / "confirm"
    (folder / "tests").mkdir(parents=True)
    (tmp_path / "run" / "tox.ini").write_text("[pytest]\naddopts = -p no_such_plugin\n")
    (folder / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    run = run_tests(folder, "python -m pytest -q -p no:cacheprovider tests", private=True, isolation="subreaper")
    assert run.passed, run.output
    assert run.outcome == ("no failing tests; 1 passed, 0 failed; not run in a private root: isolation mode "
                           "subreaper has no namespaces")


STEP_WRITER = """import os

try:  # a project whose tests write beside themselves, outside their folder (as a hostile one would)
    with open({outside!r}, "a") as out:
        out.write(os.path.basename(os.getcwd()) + "\\n")
except OSError:
    pass
"""


@PRIVATE
def test_every_test_step_of_a_session_leaves_nothing_outside_its_folder(agent, settings):
    """Issue 32 (a), the invariant behind it: not only the confirming run but every run of the
    project's tests in a session (observe, test, replay) runs in a private root, so what it writes
    outside its project folder (here a file in a folder no run hides) does not survive the step, and
    the confirming run cannot see it. On main, observe's and test's runs left it there."""
    import shutil
    import tempfile

    from astra_memory.session.run import start_session
    from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH, task_with_script

    base = Path(tempfile.mkdtemp(prefix=".private-steps-", dir=OUTSIDE_TMP))
    outside = base / "written-by-test-steps"
    try:
        first = task_with_script(settings, "steps-alpha", [ALPHA_DIAGNOSIS, ALPHA_FIX, FINISH])
        (Path(first["workspace"]) / "conftest.py").write_text(STEP_WRITER.format(outside=str(outside)))
        final = start_session(agent, first)
        assert final["status"] == "fixed", final.get("reason")
        assert [r["phase"] for r in final["test_runs"]][:2] == ["observe", "test"]
        assert all("private root" not in r["outcome"] for r in final["test_runs"])
        assert not outside.exists(), outside.read_text()

        second = {**task_with_script(settings, "steps-replay"), "script": None, "approve_edits": False}
        (Path(second["workspace"]) / "conftest.py").write_text(STEP_WRITER.format(outside=str(outside)))
        replayed = start_session(agent, second)
        assert replayed["status"] == "fixed" and replayed["replay"]["replayed"] == final["stored_memory_id"]
        assert "replay" in [r["phase"] for r in replayed["test_runs"]]
        assert not outside.exists(), outside.read_text()
    finally:
        shutil.rmtree(base)
