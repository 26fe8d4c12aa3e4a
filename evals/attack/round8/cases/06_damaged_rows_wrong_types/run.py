"""Claim (memory.md, "Imported memory is untrusted ...": a damaged row "is skipped when read, never
the end of a session or a command, and said: a session's `memory_search` emits
`memory_damaged_skipped` (each id and what is wrong) ...; `memory search`, `list`, `export` and
`migrate` print "N damaged record(s) skipped" with each id on stderr"; "A search with a filter on the
value (`error_type`) is ranked the same way among the rows `SqliteStore`'s own filter query keeps";
cli.md: no traceback). Attack: beside a learned fix, rows written into the memory file by hand with
canonical UUID ids and the learned fix's own vectors (so every search meets them), each with a wrong
type in a field a filter or a rule reads: `project_id` a number, a list, an object; `error_type` a
list and a number; `symptom` a number; `confirmations` a string; `file_paths` a string. Then
`memory search --error-type`, `--project`, both, plain, `list --all`, `export`, `migrate` in place,
and a no-model session on a clone with the bug back. HELD when no command prints a traceback, each
names every damaged id on stderr, the learned fix is still found, and the session replays it
(`fixed`) with `memory_damaged_skipped` naming every damaged id."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c, prefix, A = learned_row("c06")
r, fix = det_repo(c, rel="calc2")  # same files and dates: the same project as the learned one
clone = bug_clone(c, r)
variants = [("project_id", 12345), ("project_id", ["git:a", "git:b"]), ("project_id", {"$ne": None}),
            ("error_type", ["AssertionError"]), ("error_type", 7), ("symptom", 12),
            ("confirmations", "fix"), ("file_paths", "calc.py")]
ids = []
for i, (field, value) in enumerate(variants):
    key = f"00000000-0000-4000-8000-0000000006{i:02d}"
    rec = dict(A, memory_id=key)
    rec[field] = value
    plant(c, prefix, key, json.dumps(rec), A["memory_id"])
    ids.append(key)
# the rows whose error_type is not the string "AssertionError" are not kept by that filter: not read
outside = [k for k, (field, _v) in zip(ids, variants) if field == "error_type"]
out, rep = damaged_sweep(c, clone, A["memory_id"], ids, outside)
bad = {k: v for k, v in out.items() if v[1] or not v[2] or not v[3] or (k != "session" and v[0] != 0)}
verdict(bool(bad), f"{len(ids)} damaged rows; failing readers (rc, traceback, every id said, good fix found/fixed, tail): "
        f"{bad if bad else 'none'}; session status {rep.get('status')}")
