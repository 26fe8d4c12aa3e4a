"""Hostile memory file: a row whose vectors have the wrong dimension (768 floats, as another
embedding model writes; and a 3-byte blob, a cut row) beside an intact confirmed fix. Promise
(memory.md, guarantees.md (i)): a damaged row is skipped, said, never the end of a session or a
command; errors are one line, no traceback. The intact fix must still be found and replayed."""
import os, sys, json, sqlite3, struct
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c07")
ws = git_project(c, "proj", dict(BUGGY_CALC))
cl = clone(c, ws, "clone")
url, _ = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
d = parse_json(c.run_live(ws, url, thread="c07-live"))
log(c, "live:", d.get("status"), d.get("stored_memory_id"))
con = sqlite3.connect(c.home + "/memory.sqlite")
(prefix, key, value), = con.execute("select prefix, key, value from store").fetchall()
vecs = con.execute("select field_name, embedding from store_vectors where key=?", (key,)).fetchall()
log(c, "vectors:", [(f, len(e)) for f, e in vecs])
for n, blob in (("11111111-1111-4111-8111-111111111111", struct.pack("768f", *([0.03] * 768))),
                ("22222222-2222-4222-8222-222222222222", b"\x01\x02\x03")):
    con.execute("insert into store (prefix, key, value) values (?, ?, ?)", (prefix, n, value.replace(key.encode(), n.encode()) if isinstance(value, bytes) else value.replace(key, n)))
    for f, _e in vecs:
        con.execute("insert into store_vectors (prefix, key, field_name, embedding) values (?, ?, ?, ?)", (prefix, n, f, blob))
con.commit()
con.close()
symptom = json.loads(value).get("symptom", "AssertionError: assert -1 == 5")
out = {}
for label, args in (("search", ["memory", "search", symptom[:300]]), ("search --project", ["memory", "search", symptom[:300], "--project", cl]),
                    ("list", ["memory", "list"])):
    p = c.astra(args)
    out[label] = (p.returncode, "Traceback" in p.stderr, key in p.stdout, p.stderr.strip().splitlines()[-3:])
    log(c, label, out[label], p.stdout[-300:])
d2 = parse_json(c.run_replay(cl, thread="c07-replay"))
out["session"] = (d2.get("status"), d2.get("replayed_memory_id"), str(d2.get("reason"))[:200])
log(c, json.dumps(out))
ok = all(v[0] == 0 and not v[1] and v[2] for k, v in out.items() if k not in ("list", "session")) and d2.get("status") == "fixed"
verdict(not ok, json.dumps(out))
