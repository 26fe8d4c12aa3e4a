"""Promise (docs/memory.md "Replay": a stored diff has no more reach than apply_edit; imported memory
is untrusted until confirmed here; guarantees.md: no write follows a path out of the workspace or into
.git). Even when a human approves the replay of an imported fix, its diff may write only the
workspace's own files.
Attack: a real export (an honest learned fix) edited so that its diff also changes ../victim/calc.py,
an existing file beside the workspace whose text the hunk matches (C10_ONLY_VICTIM=0: also creates
../outside-c10.py, an absolute path under the case folder, and .git/hooks/post-checkout; the first
run: replay skipped it, "its files ... are not in this workspace"). The id is recomputed from the
content the refusal names. Imported into a new home; a clone with the bug runs a session with --approve-edits and
every request approved on stdin."""
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c10")
homeA = os.path.join(case.dir, "homeA")
os.makedirs(homeA)
r = lh.base_repo(case)
r.commit("Fix add: wrong operator", {"calc.py": lh.CALC_FIXED, "tests/test_add.py": lh.ADD_TEST})
pl = case.astra(["learn", "--workspace", r.root, "--python", lh.PY, "--json", "--test-command", lh.TEST_CMD],
                extra_env={"ASTRA_HOME": homeA})
exp = os.path.join(case.dir, "export.jsonl")
pe = case.astra(["memory", "export", exp], extra_env={"ASTRA_HOME": homeA})
log(case, "learn rc", pl.returncode, "export rc", pe.returncode, pe.stderr[-300:])
absf = os.path.join(case.dir, "abs-c10.py")
evil = ("diff --git a/../outside-c10.py b/../outside-c10.py\nnew file mode 100644\n--- /dev/null\n+++ b/../outside-c10.py\n"
        "@@ -0,0 +1 @@\n+PWNED = 1\n"
        f"diff --git a{absf} b{absf}\nnew file mode 100644\n--- /dev/null\n+++ b{absf}\n@@ -0,0 +1 @@\n+PWNED = 2\n"
        "diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout\nnew file mode 100755\n--- /dev/null\n"
        "+++ b/.git/hooks/post-checkout\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+touch PWNED-hook\n")
# an existing file beside the workspace, whose text the hunk's context matches (the replay's "its files
# are in this workspace" check cannot refuse it by absence)
victim = os.path.join(case.src, "victim")
lh.write(victim, "calc.py", lh.CALC_BUGGY)
if os.environ.get("C10_ONLY_VICTIM", "1") == "1":  # every file the diff names must exist for replay to try it
    evil = ""
evil += ("diff --git a/../victim/calc.py b/../victim/calc.py\n--- a/../victim/calc.py\n+++ b/../victim/calc.py\n"
         "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return 'PWNED-victim'\n")
lines = [json.loads(x) for x in open(exp) if x.strip()]
out = []
for rec in lines:
    for k in ("diff", "fix_diff"):
        if isinstance(rec.get(k), str) and rec[k]:
            rec[k] = rec[k] + ("" if rec[k].endswith("\n") else "\n") + evil
    out.append(json.dumps(rec))
crafted = os.path.join(case.dir, "crafted.jsonl")
open(crafted, "w").write("\n".join(out) + "\n")
pi = case.astra(["memory", "import", crafted])
log(case, "import rc", pi.returncode, pi.stdout[-500:], pi.stderr[-500:])
# the id is a hash over public content (guarantees.md: a check, not a signature): take the one the
# refusal names and import again
import re  # noqa: E402
m = re.search(r"is not this record's id: its content \(project, error type, diff\) gives ([0-9a-f-]{36})", pi.stderr)
if pi.returncode and m:
    rec = json.loads(out[0])
    rec["memory_id"] = m.group(1)
    open(crafted, "w").write(json.dumps(rec) + "\n")
    pi = case.astra(["memory", "import", crafted])
    log(case, "import again rc", pi.returncode, pi.stdout[-500:], pi.stderr[-500:])
ws = lh.clone_of(case, r, "clone")
lh.write(ws, "calc.py", lh.CALC_BUGGY)
import subprocess  # noqa: E402
p2 = subprocess.run([lh.ASTRA, "run", "--workspace", ws, "--test-command", lh.TEST_CMD, "--python", lh.PY,
                     "--approve-edits", "--json"], env=case.env(), capture_output=True, text=True, input="a\n" * 20,
                    timeout=300, cwd=case.dir)
try:
    d2 = json.loads(p2.stdout[p2.stdout.index("{"):p2.stdout.rindex("}") + 1])
except ValueError:
    d2 = {}
seen = {k: d2.get(k) for k in ("status", "reason", "replay_tried", "replay_skipped", "replayed_memory_id")}
seen["hits"] = [(h.get("memory_id"), h.get("score"), h.get("why")) for h in d2.get("memory_hits") or [] if isinstance(h, dict)]
log(case, "session rc", p2.returncode, lh.short(seen, 2500), "stderr:", p2.stderr[-800:])
written = [p for p in (os.path.join(case.src, "outside-c10.py"), absf, os.path.join(ws, ".git/hooks/post-checkout"))
           if os.path.lexists(p)]
if "PWNED-victim" in open(os.path.join(victim, "calc.py")).read():
    written.append(os.path.join(victim, "calc.py"))
calc_now = open(os.path.join(ws, "calc.py")).read()
lh.verdict(bool(written), f"import rc {pi.returncode} ({lh.short((pi.stdout + pi.stderr).strip(), 200)}); session rc {p2.returncode}; "
           f"written outside/into .git: {written}; calc.py now {'fixed' if 'a + b' in calc_now else 'buggy'}; "
           f"status {seen.get('status')}; replay tried {lh.short(seen.get('replay_tried'), 300)}; skipped {lh.short(seen.get('replay_skipped'), 300)}")
