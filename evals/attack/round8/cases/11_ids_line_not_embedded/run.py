"""Claim (memory.md: the `failing test ids:` line "is never embedded nor read by BM25: the vector and
the words searched are those of the symptom without it, for the query too, so no search's scores
moved"; each hit's `why:` line names "the other names and words it shares"). Attack: two imported
records of another project, R1 and R2, the same in all but R2's ids line, which is stuffed with the
query's own words (`failing test ids: tests/test_slug.py::test_slug slugify separator dashes ...`);
and one query sent twice, once with an ids line stuffed with R1's words. With `ASTRA_MIN_SCORE=0`
(every rank, the scores shown) R1 and R2 must score the same, the stuffed query must score each
record as the plain one does, and no `why:` line may list a word found only in an ids line."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c = Case("c11")
lines = learned_template(c)
t = lines[0]
base = ("AssertionError\nfailing tests: render\nfailing code: assert render('x') == 'ok'\n"
        "compared: assert 'ko' == 'ok'")
recs = []
for i, extra in enumerate(["tests/test_widget.py::test_render",
                           "tests/test_widget.py::test_render slugify separator dashes zebrafinch underscore slug"]):
    rec = dict(t)
    rec.pop("learned_from", None)
    rec.update(project=f"widgets{i}", project_id=f"git:{i + 7:032x}", symptom=base + "\nfailing test ids: " + extra,
               fix_description="Fix render", diagnosis=None)
    rec["confirmations"] = [dict(cf, project=rec["project"], project_id=rec["project_id"]) for cf in t.get("confirmations") or []]
    recs.append(rec)
imp, recs = import_fixing_id(c, recs)
ids = [x.get("memory_id") for x in recs]
q_plain = ("AssertionError\nfailing tests: slug\nfailing code: assert slugify('A B') == 'a-b'\n"
           "compared: assert 'a_b' == 'a-b'\nfailing test ids: tests/test_slug.py::test_slug")
q_stuffed = q_plain + " render widget ko ok zebrafinch"
res = {}
for name, q in (("plain", q_plain), ("stuffed", q_stuffed)):
    p, data = search(c, q, "--top-k", "10")
    p2 = c.astra(["memory", "search", q, "--top-k", "10"], extra_env={"ASTRA_MIN_SCORE": "0"})
    pj = c.astra(["memory", "search", q, "--top-k", "10", "--json"], extra_env={"ASTRA_MIN_SCORE": "0"})
    import json as _j
    try:
        hits = _j.loads(pj.stdout)
    except Exception:
        hits = []
    res[name] = {h.get("memory_id"): (h.get("score"), h.get("fused")) for h in hits}
    whys = [l for l in p2.stdout.splitlines() if "why:" in l]
    res[name + " whys"] = whys
    print(name, pj.returncode, res[name], "\n".join(whys), p2.stderr[-300:])
r1p, r2p = res["plain"].get(ids[0]), res["plain"].get(ids[1])
moved_record = r1p != r2p
moved_query = any(res["plain"].get(i) != res["stuffed"].get(i) for i in ids)
leak = [w for w in ("zebrafinch",) if any(w in l for l in res["plain whys"] + res["stuffed whys"])]
verdict(imp.returncode != 0 or None in (r1p, r2p) or moved_record or moved_query or bool(leak),
        f"import rc {imp.returncode}; R1 {r1p} vs R2 (ids line stuffed) {r2p}; plain query {res['plain']} vs stuffed query {res['stuffed']}; "
        f"ids-line-only words in why: {leak}")
