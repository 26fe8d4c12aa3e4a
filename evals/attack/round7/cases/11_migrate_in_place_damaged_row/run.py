"""Claim (memory.md: a damaged row (a file edited by hand, a non-UUID id from an earlier hostile
import, a field only a newer version knows) "is skipped when read, never the end of a session or a
command, and said"; `memory migrate` without `--from/--to` upgrades a memory in place; only
`migrate --from --to` is named as stopping on a damaged row). Attack: a memory file with a learned
fix and two damaged rows written into it by hand: one whose id is not a UUID, one with a field no
version knows. Then `memory migrate` in place, then `memory list`. HELD when migrate ends without a
traceback, names the damaged rows, and the learned fix is still there, unchanged and searchable."""
import json, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c, prefix, A = learned_row("c11")
bad1 = dict(A, memory_id="not-a-uuid-c11")
bad2 = dict(A, memory_id="00000000-0000-4000-8000-00000000c011", from_the_future={"x": 1})
for rec in (bad1, bad2):
    c.sql("insert into store(prefix, key, value) values (?, ?, ?)", (prefix, rec["memory_id"], json.dumps(rec).encode()))
m = c.astra(["memory", "migrate"])
print("migrate", m.returncode, m.stdout[-1500:], m.stderr[-1500:])
lst = c.astra(["memory", "list", "--json", "--all"])
print("list", lst.returncode, lst.stdout[-800:], lst.stderr[-800:])
recs = c.records()
kept = any(x.get("memory_id") == A["memory_id"] and x.get("diff") == A["diff"] for x in recs)
tb = "Traceback" in m.stderr or "Traceback" in lst.stderr
named = "not-a-uuid-c11" in (m.stdout + m.stderr)
verdict(tb or m.returncode != 0 or not kept or not named,
        f"migrate rc {m.returncode}; traceback: {tb}; damaged row named by migrate: {named}; learned fix kept: {kept}; records listed {len(recs)}")
