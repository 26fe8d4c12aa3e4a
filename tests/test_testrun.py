import os
import sys

from astra_memory.testrun.results import counts_text
from astra_memory.testrun.run import parse_counts, run_tests
from astra_memory.testrun.symptoms import parse_failure, symptom_query
from tests.helpers import PROJECT_TESTS


def _project(tmp_path, test_body: str):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_p.py").write_text(test_body)
    return tmp_path


def test_passing_run_confirms_the_exact_outcome_string(tmp_path):
    _project(tmp_path, "def test_a():\n    assert 1\n\ndef test_b():\n    assert 2\n")
    run = run_tests(tmp_path, PROJECT_TESTS)
    assert run.passed and run.exit_code == 0
    assert run.outcome == "no failing tests; 2 passed, 0 failed" and run.evidence == "pytest"


def test_failing_run_is_parsed_into_a_failure(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "m.py").write_text("def f(x):\n    return x.lower()\n")
    _project(tmp_path, "from app.m import f\n\ndef test_audit_key():\n    assert f('Audit-Log') == 'audit_log'\n")
    run = run_tests(tmp_path, PROJECT_TESTS)
    assert not run.passed and run.counts == {"failed": 1}
    failure = parse_failure(run.output)
    assert failure.error_type == "AssertionError"
    assert failure.failing_tests == ["tests/test_p.py::test_audit_key"]
    assert "audit-log" in failure.message
    query = symptom_query(failure)
    assert query.startswith("AssertionError") and "audit key" in query


def test_exception_type_and_traceback_files(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "m.py").write_text("def f(x):\n    return x + 1\n")
    _project(tmp_path, "from app.m import f\n\ndef test_add():\n    assert f('a') == 2\n")
    failure = parse_failure(run_tests(tmp_path, PROJECT_TESTS).output)
    assert failure.error_type == "TypeError"
    assert "app/m.py" in failure.files


def test_hanging_tests_are_killed_at_the_timeout(tmp_path):
    _project(tmp_path, "import time\n\ndef test_hang():\n    time.sleep(60)\n")
    run = run_tests(tmp_path, PROJECT_TESTS, timeout_s=3)
    assert run.timed_out and not run.passed and run.exit_code == 124
    assert run.duration_s < 30


def test_secrets_do_not_reach_the_tests(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-should-not-leak-123456")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_should_not_leak")
    _project(tmp_path, "import os\n\ndef test_env():\n    assert 'OPENAI_API_KEY' not in os.environ\n"
                       "    assert 'GITHUB_TOKEN' not in os.environ\n    assert os.getcwd() == os.environ['HOME']\n")
    assert run_tests(tmp_path, PROJECT_TESTS).passed


def test_the_shells_switch_for_pytest_plugins_reaches_the_tests(tmp_path, monkeypatch):
    """PYTEST_DISABLE_PLUGIN_AUTOLOAD is pytest's, not a secret: a shell that sets it gets it in the
    project's runs (the suite sets it so that our interpreter's plugins are not loaded in each run)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    _project(tmp_path, "import os\nimport sys\n\ndef test_env():\n"
                       "    assert os.environ.get('PYTEST_DISABLE_PLUGIN_AUTOLOAD') == '1'\n"
                       "    assert 'langsmith' not in sys.modules\n")
    assert run_tests(tmp_path, "python -m pytest -q -p no:cacheprovider tests").passed


def test_output_past_the_bound_is_killed_and_not_a_pass(tmp_path):
    script = tmp_path / "noisy.py"
    script.write_text("import sys\nsys.stdout.write('x' * 5_000_000)\n")
    run = run_tests(tmp_path, f"{sys.executable} noisy.py")
    assert not run.passed and run.output_overflow and len(run.output) < 300_000
    assert "output passed 200000 bytes" in run.output and run.exit_code == 125


def test_missing_command_is_a_clear_result(tmp_path):
    run = run_tests(tmp_path, "definitely-not-a-command-astra --x")
    assert run.exit_code == 127 and "could not start" in run.output


def test_counts_and_outcome_helpers():
    assert parse_counts("=== 1 failed, 3 passed in 0.12s ===") == {"failed": 1, "passed": 3}
    assert counts_text({"passed": 4}) == "4 passed, 0 failed"


# -- issue 32 (a): pytest's configuration comes from the project folder alone ------------------------

def test_pytest_configuration_is_searched_inside_the_folder_only(tmp_path):
    from astra_memory.testrun.pytest_config import find_config, pinned_options

    folder = tmp_path / "run" / "confirm"
    (folder / "tests").mkdir(parents=True)
    (tmp_path / "run" / "tox.ini").write_text("[pytest]\naddopts = -p app.plugin\n")  # above: never read
    argv = ["python", "-m", "pytest", "-q", "tests"]
    assert find_config(folder, argv) is None
    assert pinned_options(folder, argv) == ["-c", os.devnull, f"--rootdir={folder}", f"--confcutdir={folder}"]
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n")  # no pytest section: pytest's fallback
    (folder / "setup.cfg").write_text("[tool:pytest]\naddopts = -q\n")
    assert find_config(folder, argv) == folder / "setup.cfg"
    (folder / "tests" / "pytest.ini").write_text("")  # nearer the test path, and empty: pytest takes it
    assert pinned_options(folder, argv) == ["-c", str(folder / "tests" / "pytest.ini"),
                                            f"--rootdir={folder / 'tests'}", f"--confcutdir={folder / 'tests'}"]


def test_a_configuration_pytest_refuses_is_pinned_for_pytest_to_say_so(tmp_path):
    # sqlparse's parents of 2016 have `[pytest]` in setup.cfg: pytest's loader refuses it with fail(), which is
    # no Exception; the search let it out and `astra-memory learn` stopped there with a traceback
    from astra_memory.testrun.pytest_config import find_config, pinned_options

    (tmp_path / "setup.cfg").write_text("[pytest]\naddopts = -q\n")
    argv = ["python", "-m", "pytest", "-q"]
    assert find_config(tmp_path, argv) == tmp_path / "setup.cfg"
    assert pinned_options(tmp_path, argv)[:2] == ["-c", str(tmp_path / "setup.cfg")]


def test_signed_results_lines_are_checked(tmp_path):
    import hashlib
    import hmac
    import json as json_

    from astra_memory.testrun.results import verified_lines

    key = b"k" * 32

    def line(n, **record):
        body = json_.dumps({"pid": 5, "n": n, **record}, sort_keys=True).encode()
        return body + b"\t" + hmac.new(key, body, hashlib.sha256).hexdigest().encode()

    good = [line(0, e="start"), line(1, e="finish", exitstatus=0)]
    assert None not in verified_lines(b"\n".join(good), key)
    forged = good[1].replace(b'"exitstatus": 0', b'"exitstatus": 1')
    assert verified_lines(b"\n".join([good[0], forged]), key)[1] is None  # altered after signing
    assert verified_lines(b"\n".join([good[0], b'{"pid": 5, "n": 1, "e": "finish"}']), key)[1] is None  # unsigned
    assert None in verified_lines(line(1, e="finish", exitstatus=0), key)  # line 0 is missing
    assert verified_lines(b"\n".join([good[0], good[0]]), key)[1] is None  # sent twice
    assert None in verified_lines(b"\n".join(good), b"x" * 32)  # another run's key
