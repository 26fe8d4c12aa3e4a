"""Outside round 6 (evals/attack/round6/, a helper who read no code) against `astra-memory learn`:
each test is one invariant a hostile git history broke, each seen failing before its fix.

- A commit whose tests failed at its parent for a reason other than its parent's source (here: the
  folder the run happens in; in case 05, a wall clock) is not a fix: the commit's failing tests run
  once more at the parent after the run with the fix and must fail again (learn/confirm_commit.py
  step 5, as confirm's ``bug_not_shown``). Case 05 stored a comment-only diff as confirmed.
- A commit's source change is held to the rules a session's edits are held to (step 3): a project
  pytest plugin named by ``addopts`` is machinery (case 03: stored as confirmed while the bug
  stayed), an added line that special-cases the test runner is refused (case 04: stored active),
  and so is a lone carriage return brought into a file (case 16: stored active, refused at replay).
- Every tree learn writes is the commit's blobs as stored: a filter driver of the repository's
  ``.git/config`` never runs (case 13: its smudge command ran under ``git archive``).
- Only a learn confirmed here makes a commit "learned before": an imported record naming the commit
  does not (case 20: the real fix was never judged).
- A commit gone from a rewritten history is named, not a traceback (case 17); a commit subject's
  keys are scrubbed and its markup and escapes printed literally (cases 08, 09); a non-ASCII file
  name is a source file, a name git must quote is said so (case 10).
- Outside the round (found judging sqlparse's history for `bench history`, issue 35): a parent whose
  pytest configuration pytest refuses (``[pytest]`` in ``setup.cfg``) is a commit that cannot run
  there, not a traceback that stops the learn.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import pytest

from astra_memory.learn.confirm_commit import RunOptions, Verdict, judge_commit
from astra_memory.learn.history import Commit, HistoryError, change_of, export_tree, walk
from astra_memory.learn.options import Filters
from astra_memory.learn.store_commit import learned, store_learned
from astra_memory.stores.record import lone_cr_refusal
from astra_memory.stores.transfer import import_file
from tests.helpers import PROJECT_TESTS, git

TEST_COMMAND = PROJECT_TESTS
BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
ADD_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


def history(where: Path, commits: list[tuple[str, dict[str, str | bytes]]]) -> list[str]:
    """A repository at ``where`` with one commit per (message, files written) pair; their ids."""
    where.mkdir(parents=True, exist_ok=True)
    git(where, "init", "-q")
    shas = []
    for message, files in commits:
        for rel, text in files.items():
            path = where / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text if isinstance(text, bytes) else text.encode())
        git(where, "add", "-A")
        git(where, "commit", "-q", "--allow-empty", "-m", message)
        shas.append(git(where, "rev-parse", "HEAD").strip())
    return shas


def judge(project: Path, sha: str, tmp_path: Path):
    commit = next(c for c in walk(project, filters=Filters(message="")) if c.sha == sha)
    assert not commit.skipped, commit.skipped
    return judge_commit(project, commit, RunOptions(test_command=TEST_COMMAND,
                                                    test_env={"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}),
                        tmp_path / "scratch")


BASE = ("initial", {"calc.py": BUGGY, "tests/test_base.py": "def test_base():\n    assert True\n"})


ADD_DIFF = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"
CONFIRMED = Verdict(verdict="confirmed", failing_tests=["tests/test_add.py::test_add"],
                    failing_output="FAILED tests/test_add.py::test_add - AssertionError: assert -1 == 5",
                    outcome="1 of 1 failing tests now pass; 2 passed, 0 failed")


def fix_commit(sha: str, parent: str) -> Commit:
    """A commit as learn's walk describes it: "Fix add", its test file and calc.py."""
    return Commit(sha=sha, parent=parent, subject="Fix add", author_date="2026-12-04T10:00:00+00:00",
                  test_files=["tests/test_add.py"], source_files=["calc.py"])


def test_a_commit_whose_tests_failed_at_its_parent_only_where_they_ran_is_not_a_fix(tmp_path):
    # the test fails only in the first copy of the parent (a cause outside the source, like a clock in
    # case 05); the "fix" is a comment: before step 5 this was `confirmed` and stored
    test = ("import os\n\n\ndef test_ready():\n"
            "    assert not os.getcwd().endswith('with-tests-run'), 'not ready yet'\n")
    shas = history(tmp_path / "p", [BASE, ("Fix readiness", {"calc.py": "# ready\n" + BUGGY, "tests/test_ready.py": test})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "not_a_fix", verdict
    assert "when run again" in verdict.reason and len(verdict.runs) == 3


def test_an_honest_fix_is_still_confirmed_with_its_parent_run_again(tmp_path):
    shas = history(tmp_path / "p", [BASE, ("Fix add", {"calc.py": FIXED, "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "confirmed", verdict
    assert len(verdict.runs) == 3 and "failing" in verdict.runs[2]



def test_a_parent_whose_pytest_configuration_pytest_refuses_cannot_run_and_the_learn_goes_on(tmp_path):
    refused = ("initial", {**BASE[1], "setup.cfg": "[pytest]\naddopts = -q\n"})
    shas = history(tmp_path / "p", [refused, ("Fix add", {"calc.py": FIXED, "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "cannot_run", verdict
    assert verdict.reason.startswith("no per-test results at its parent"), verdict.reason

FLIP = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
        "    out = yield\n    rep = out.get_result()\n    if rep.failed:\n        rep.outcome = 'passed'\n")


def test_a_commit_that_rewrites_a_plugin_named_by_addopts_is_refused(tmp_path):
    base = ("initial", {**BASE[1], "plug.py": "def pytest_configure(config):\n    pass\n",
                        "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-p plug"\n'})
    shas = history(tmp_path / "p", [base, ("Fix add", {"plug.py": FLIP, "calc.py": "# checked\n" + BUGGY,
                                                       "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "refused", verdict
    assert "plug.py is test machinery" in verdict.reason


@pytest.mark.parametrize("check", ['    if "pytest" in sys.modules:\n        return a + b\n',
                                   '    if os.environ.get("PYTEST_CURRENT_TEST"):\n        return a + b\n'])
def test_a_commit_whose_source_special_cases_the_test_runner_is_refused(tmp_path, check):
    head = "import os\nimport sys\n\n\n"
    shas = history(tmp_path / "p", [("initial", {"calc.py": head + BUGGY, "tests/test_base.py": BASE[1]["tests/test_base.py"]}),
                                    ("Fix add", {"calc.py": head + BUGGY.replace("    return", check + "    return"),
                                                 "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "refused", verdict
    assert "special-cases the test runner" in verdict.reason and "calc.py:" in verdict.reason


def test_a_commit_that_brings_a_lone_carriage_return_into_a_source_file_is_refused(tmp_path):
    # case 16: stored as an active confirmed fix (replay refused it later; it is refused before storing now)
    smuggled = FIXED.replace("    return a + b\n", "    return a + b\r    import os\n")
    shas = history(tmp_path / "p", [BASE, ("Fix add", {"calc.py": smuggled, "tests/test_add.py": ADD_TEST})])
    verdict = judge(tmp_path / "p", shas[1], tmp_path)
    assert verdict.verdict == "refused", verdict
    assert "carriage return with no line feed into calc.py" in verdict.reason


def test_a_diff_replay_would_refuse_is_never_stored_replayable_however_it_comes_in(agent, tmp_path):
    # case 16: learn stored the lone-CR diff as an active record that replay then refused; one rule
    # (stores/record.py lone_cr_refusal) now marks it for every way in: learn's store, a session's, an import
    memory = agent.memory
    commit = fix_commit("c" * 40, "d" * 40)
    diff = ADD_DIFF.replace("a + b\n", "a + b\r    import os\n")
    record = store_learned(memory, commit, CONFIRMED, message="Fix add", source_diff=diff, project="calc",
                           project_id="git:0123")
    stored = memory.get(record.memory_id)
    assert stored.diff == diff and "carriage return with no line feed into calc.py" in stored.replay_refusal
    assert stored.not_replayable == stored.replay_refusal
    line = tmp_path / "other-installation.jsonl"
    line.write_text(json.dumps({**record.model_dump(mode="json"), "not_replayable": None}) + "\n")
    assert memory.delete(record.memory_id)
    import_file(memory, line)
    assert "carriage return" in (memory.get(record.memory_id).not_replayable or "")
    crlf = diff.replace("\r    import os", "").replace("\n", "\r\n")  # CRLF line ends are no lone carriage return
    assert lone_cr_refusal(crlf) == ""


def test_no_filter_driver_of_the_repository_runs_and_trees_are_the_blobs(tmp_path):
    project, mark = tmp_path / "p", tmp_path / "smudged"
    shas = history(project, [("initial", {".gitattributes": "*.py filter=evil\nkeep.py export-subst\nx.py export-ignore\n",
                                          "calc.py": BUGGY, "keep.py": "REV = '$Format:%H$'\n", "x.py": "X = 1\n",
                                          "bin/run": "#!/bin/sh\n", "lib/link.py": b""})])
    (project / "lib" / "link.py").unlink()
    (project / "lib" / "link.py").symlink_to("../calc.py")
    (project / "bin" / "run").chmod(0o755)
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "link")
    sha = git(project, "rev-parse", "HEAD").strip()
    git(project, "config", "filter.evil.smudge", f"sh -c 'touch {mark}; cat'")
    git(project, "config", "filter.evil.clean", f"sh -c 'touch {mark}; cat'")
    tree = export_tree(project, sha, tmp_path / "tree")
    assert not mark.exists()
    assert (tree / "calc.py").read_text() == BUGGY and (tree / "keep.py").read_text() == "REV = '$Format:%H$'\n"
    assert (tree / "x.py").read_text() == "X = 1\n"
    assert (tree / "bin" / "run").stat().st_mode & 0o111
    assert (tree / "lib" / "link.py").is_symlink() and (tree / "lib" / "link.py").read_text() == BUGGY
    assert shas


def test_a_link_out_of_the_tree_is_refused(tmp_path):
    project = tmp_path / "p"
    history(project, [BASE])
    (project / "out.py").symlink_to("/etc/hostname")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "link out")
    with pytest.raises(HistoryError, match="symlink out of the tree"):
        export_tree(project, git(project, "rev-parse", "HEAD").strip(), tmp_path / "tree")


def test_an_imported_record_naming_a_commit_does_not_make_it_learned_before(agent, tmp_path):
    memory, project_id = agent.memory, "git:0123456789abcdef0123456789abcdef"
    commit = fix_commit("a" * 40, "b" * 40)
    record = store_learned(memory, commit, CONFIRMED, message="Fix add", source_diff=ADD_DIFF, project="calc",
                           project_id=project_id)
    assert set(learned(memory, project_id)) == {commit.sha}  # learned here: skipped next time
    line = tmp_path / "other-installation.jsonl"
    line.write_text(json.dumps(record.model_dump(mode="json")) + "\n")
    assert memory.delete(record.memory_id)
    import_file(memory, line)
    assert memory.get(record.memory_id) is not None
    assert learned(memory, project_id) == {}  # the file's word: the commit is judged here


def test_one_commit_confirmed_by_two_learns_at_once_is_one_confirmation(agent):
    # case 18: two learns of one repository at once each stored the commit: 1 record, 2 confirmations
    commit = fix_commit("e" * 40, "f" * 40)
    stored: list[str] = []

    def learn(thread: str, folder: str) -> None:  # each learn its own thread, as two `astra-memory learn`
        stored.append(store_learned(agent.memory, commit, CONFIRMED, message="Fix add", source_diff=ADD_DIFF,
                                    project=folder, project_id="git:0123", thread_id=thread).memory_id)

    workers = [threading.Thread(target=learn, args=(f"learn-calc-{n}", folder))
               for n, folder in enumerate(["calc", "calc", "clone"])]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(set(stored)) == 1 and agent.memory.count() == 1
    record = agent.memory.get(stored[0])
    assert [c.session_id for c in record.confirmations] == [f"learn-{commit.sha}"]


def test_a_commit_gone_from_a_rewritten_history_is_named(tmp_path):
    project = tmp_path / "p"
    shas = history(project, [BASE, ("Fix add", {"calc.py": FIXED, "tests/test_add.py": ADD_TEST})])
    item = next(c for c in walk(project) if c.sha == shas[1])
    git(project, "reset", "-q", "--hard", shas[0])
    git(project, "reflog", "expire", "--expire=now", "--all")
    git(project, "gc", "-q", "--prune=now")
    with pytest.raises(HistoryError, match="no longer in the repository"):
        change_of(project, item)


def test_a_subjects_keys_are_scrubbed(tmp_path):
    # case 08: the subject's keys were printed raw by learn's table and --json and kept in its checkpoints
    key = "sk-proj-" + "r6A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0"
    shas = history(tmp_path / "p", [BASE, (f"Fix add OPENAI_API_KEY={key}", {"calc.py": FIXED, "tests/test_add.py": ADD_TEST})])
    item = next(c for c in walk(tmp_path / "p") if c.sha == shas[1])
    assert key not in item.subject and "[REDACTED]" in item.subject


def test_a_subjects_markup_and_escapes_are_printed_as_text(capsys):
    # case 09: learn's table read Rich markup in a subject and wrote its terminal escapes raw
    from astra_memory.cli import learn as cli_learn

    # read through capsys: setting the shared console's file would pin it to this test's stream for good
    cli_learn.print_summary({"workspace": "/p", "results": [
        {"sha": "a" * 40, "subject": "Fix add [bold red]URGENT[/bold red] \x1b]52;c;cHduZWQ=\x07 \x1b[2J",
         "verdict": "confirmed", "reason": "ok"}],
        "counts": {"confirmed": 1}, "judged": 1, "candidates": 1, "skipped": [], "status": "done",
        "thread_id": "learn-x"})
    shown = capsys.readouterr().err
    assert "\x1b" not in shown and "\x07" not in shown
    assert "[bold red]URGENT[/bold red]" in " ".join(shown.replace("│", " ").split())


def test_a_non_ascii_file_name_is_a_source_file_and_a_quoted_name_is_said(tmp_path):
    test = "def test_f():\n    assert True\n"
    shas = history(tmp_path / "p", [("initial", {"ünï.py": "X = 1\n", "new\nline.py": "X = 1\n", "tests/test_b.py": test}),
                                    ("Fix ü", {"ünï.py": "X = 2\n", "tests/test_u.py": test}),
                                    ("Fix newline", {"new\nline.py": "X = 2\n", "tests/test_n.py": test})])
    commits = {c.sha: c for c in walk(tmp_path / "p")}
    assert commits[shas[1]].skipped == "" and commits[shas[1]].source_files == ["ünï.py"]
    assert "a file name git has to quote" in commits[shas[2]].skipped
    assert time.time()  # walk needs no test run
