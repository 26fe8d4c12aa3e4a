"""Claim (cli.md: "Project text, stored text, diffs and test output are printed literally:
`t[value % 10]`, `[bold]` or a backslash in a stored fix is shown as stored"; memory.md: each hit
shown says why, naming "the failing tests both name"; the progress line names what the best hit was
shown on). Attack: a real project whose parametrized test ids hold Rich markup
(`[bold red]`, `[link=...]`) and an escaped ESC; its fix is learned, then the bug comes back: the
`why:` line of `memory search` and the session's progress/summary lines name those test ids. HELD
when the markup is printed as text (not consumed) and no raw ESC/BEL byte is printed."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

TESTS = ('import pytest\nfrom calc import add\n\n\n'
         '@pytest.mark.parametrize("v", ["[bold red]X[/bold red]", "[link=https://evil.example/x]see[/link]", "\\x1b]52;c;ZXZpbA==\\x07"])\n'
         'def test_add_tagged(v):\n    assert add(2, 3) == 5\n')
c = Case("c04")
r, fix = det_repo(c, fix_files={"calc.py": CALC_FIXED, "tests/test_add.py": TESTS})
p, data = c.learn(r.root, extra_env={"COLUMNS": "250"})
print("learn", p.returncode, short(row_for(data, fix), 800))
recs = c.records()
print("symptom", short(recs[0].get("symptom") if recs else None, 2000))
clone = bug_clone(c, r)
q = recs[0]["symptom"] if recs else "AssertionError"
s = c.astra(["memory", "search", q, "--project", clone], extra_env={"COLUMNS": "250"})
print("search", s.returncode, s.stdout[-3000:], s.stderr[-800:])
plain = c.astra(["run", "--workspace", clone, "--test-command", TEST_CMD, "--python", PY, "--no-approve-edits", "--no-replay"],
                extra_env={"COLUMNS": "250"})
pr, rep = run_ws(c, clone)
print("session (text, no replay)", pr.returncode, plain.stdout[-3000:], plain.stderr[-1000:])
outs = {"search": s.stdout + s.stderr, "run": plain.stdout + plain.stderr}
raw = [k for k, v in outs.items() if "\x1b" in v or "\x07" in v]
why_lines = [l for l in s.stdout.splitlines() if "why" in l or "same failing" in l]
lost = [k for k, v in outs.items() if "test_add_tagged" in v and "[bold red]" not in v]
verdict(bool(raw) or bool(lost) or not recs, f"records={len(recs)}; raw ESC/BEL printed by {raw}; markup consumed by {lost}; why lines: {short(why_lines, 600)}")
