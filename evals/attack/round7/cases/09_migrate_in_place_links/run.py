"""Claim (memory.md: "`memory migrate` without `--from/--to` upgrades a memory in place: version-1
records (one per session) get their version-2 id and duplicates are merged with all their
confirmations, and a record's `superseded_by` or a failed attempt's `linked_fix` that named an old
id names the new one"). Attack: a memory file holding, beside a learned fix X, two version-1 rows
(random ids, as version 1 kept one record per session, written into the SQLite file as an older
version would have): U, the same fix as X from another session, and V, another fix of the same
bug, `superseded` with `superseded_by: U`. Then `memory migrate` in place. HELD when afterwards U's
confirmation is merged into X, V has a version-2 id, and V's `superseded_by` names a record that
exists (X), with no traceback."""
import hashlib, json, os, sys, uuid
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r7 import *

c, prefix, A = learned_row("c09")
X = A["memory_id"]
U, V = str(uuid.uuid4()), str(uuid.uuid4())
def v1(rec, mid, session):
    rec = json.loads(json.dumps(rec))
    rec["memory_id"] = mid
    rec["schema_version"] = 1
    rec["session_id"] = session
    for cf in rec.get("confirmations", []):
        cf["session_id"] = session
        cf["thread_id"] = "t-" + session
    rec["confirmations"] = rec.get("confirmations", [])[:1]
    return rec
u = v1(A, U, "old-session-u")
v = v1(A, V, "old-session-v")
v["diff"] = v["diff"].replace("+    return a + b\n", "+    return b + a\n")
v["status"] = "superseded"
v["superseded_by"] = U
for rec in (u, v):
    if "diff_sha256" in rec:
        rec["diff_sha256"] = hashlib.sha256(rec["diff"].encode()).hexdigest()
    c.sql("insert into store(prefix, key, value) values (?, ?, ?)", (prefix, rec["memory_id"], json.dumps(rec).encode()))
    for field, emb in c.sql("select field_name, embedding from store_vectors where key = ?", (X,)):
        c.sql("insert into store_vectors(prefix, key, field_name, embedding) values (?, ?, ?, ?)", (prefix, rec["memory_id"], field, emb))
print("before", [(x.get("memory_id"), x.get("status"), x.get("superseded_by")) for x in c.records()])
m = c.astra(["memory", "migrate"])
print("migrate", m.returncode, m.stdout[-1500:], m.stderr[-1500:])
after = c.records()
print("after", [(x.get("memory_id"), x.get("status"), x.get("superseded_by"), [k.get("session_id") for k in x.get("confirmations", [])]) for x in after])
ids = {x.get("memory_id") for x in after}
x_rec = next((x for x in after if x.get("memory_id") == X), {})
merged = "old-session-u" in [k.get("session_id") for k in x_rec.get("confirmations", [])]
v_rec = next((x for x in after if "return b + a" in (x.get("diff") or "")), None)
dangling = [x.get("memory_id") for x in after if x.get("superseded_by") and x.get("superseded_by") not in ids]
stale_ids = [i for i in ids if i in (U, V)]
tb = "Traceback" in m.stderr
verdict(tb or m.returncode != 0 or not merged or v_rec is None or bool(dangling) or bool(stale_ids) or (v_rec or {}).get("superseded_by") != X,
        f"migrate rc {m.returncode}; U merged into X: {merged}; V kept: {v_rec is not None}, its superseded_by {(v_rec or {}).get('superseded_by')} (X={X}); dangling superseded_by: {dangling}; old ids still present: {stale_ids}; traceback: {tb}")
