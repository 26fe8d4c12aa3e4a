"""Claim (memory.md: a damaged row "is skipped when read, never the end of a session or a command,
and said"; commit de109bb / memory.md's search: a filter reads only values that are valid JSON, so a
cut-off row no longer stops `memory search --error-type` or a session's search for its project's own
fixes; cli.md: "an unexpected error no command expected: one `error:` line, no traceback". memory.md
names as "Not handled yet: a value that is not JSON at all (the store's own read fails)"). Attack:
beside a learned fix, rows written by hand with the learned fix's vectors: a value cut off half way
(a crash mid-write), a value that is valid JSON but no object (`[1, 2]`, `"fix"`, `null`, `42`).
Then the filtered and plain searches, `list --all`, `export`, `migrate`, and a no-model session on a
clone with the bug back. HELD when nothing prints a traceback and the session is not stopped (it
replays the learned fix); a command that refuses in one `error:` line on the cut-off row is the
documented limit (noted, not BROKEN); a command that succeeds must say the rows it skipped (a filtered search: the cut-off row, whose text
holds the filtered error type)."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c, prefix, A = learned_row("c07")
r, fix = det_repo(c, rel="calc2")  # same files and dates: the same project as the learned one
clone = bug_clone(c, r)
values = [json.dumps(dict(A, memory_id="00000000-0000-4000-8000-000000000700"))[:400],
          "[1, 2]", '"fix"', "null", "42"]
ids = []
for i, v in enumerate(values):
    key = f"00000000-0000-4000-8000-0000000007{i:02d}"
    plant(c, prefix, key, v, A["memory_id"])
    ids.append(key)
# a value that is JSON but no object has no error_type: a filter on it need not say it; the cut-off
# row's text does hold `"error_type": "AssertionError"` (its first 400 characters): a filtered search
# for that type must say it skipped it
print("cut-off row holds the error type:", '"error_type": "AssertionError"' in values[0])
out, rep = damaged_sweep(c, clone, A["memory_id"], ids, outside_filter=ids[1:])
tb = {k: v for k, v in out.items() if v[1]}
stopped = rep.get("status") != "fixed"
refused = {k: v[4] for k, v in out.items() if k != "session" and v[0] != 0 and not v[1] and "error:" in v[4]}
unsaid = {k: v[4] for k, v in out.items() if k != "session" and v[0] == 0 and not v[2]}
verdict(bool(tb) or stopped or bool(unsaid),
        f"tracebacks: {tb or 'none'}; session status {rep.get('status')} (damaged said in events: {out['session'][2]}); "
        f"succeeded without naming every damaged id: {unsaid or 'none'}; refused in one error line (documented limit): {refused or 'none'}")
