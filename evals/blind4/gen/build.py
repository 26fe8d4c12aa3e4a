"""Build cases.jsonl and diagnoses.jsonl (into final/) from the captured runs (runs/cand/*.json|txt), roles.py and diagnoses.py."""
import json, os, random, re, sys, collections
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roles import RECORDS, QUERIES
from libs import LIBS
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTDIR = os.path.join(BASE, "final")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
rng = random.Random(20261202 + 4)
EXC = r"((?:[A-Za-z_][\w.]*)?(?:Error|Exception|Exit|Iteration|Failure|Failed))\b"

def load(key):
    meta = json.load(open(os.path.join(BASE, "runs", "cand", key + ".json")))
    meta["failure"] = open(os.path.join(BASE, "runs", "cand", key + ".txt"), encoding="utf-8").read()
    assert meta["rc"] == 1, key
    return meta

def error_type(text):
    """Most frequent exception named in the FAILED/SUBFAILED summary lines; else in the 'E' lines."""
    t = ANSI.sub("", text)
    cnt = collections.Counter()
    for l in t.splitlines():
        if l.startswith(("FAILED ", "SUBFAILED")):
            m = re.search(r" - " + EXC, l)
            if m:
                cnt[m.group(1).split(".")[-1]] += 1
            elif " - assert " in l or l.rstrip().endswith(" - assert"):
                cnt["AssertionError"] += 1
    if not cnt:
        for l in t.splitlines():
            m = re.match(r"E\s+" + EXC, l)
            if m:
                cnt[m.group(1).split(".")[-1]] += 1
            elif re.match(r"E\s+assert ", l):
                cnt["AssertionError"] += 1
    return cnt.most_common(1)[0][0] if cnt else "AssertionError"

def passed(lib):
    t = ANSI.sub("", open(os.path.join(BASE, "runs", "after_revert", lib + ".txt")).read())
    last = [l for l in t.splitlines() if l.strip()][-1]
    assert "failed" not in last and "error" not in last, last
    return int(re.search(r"(\d+) passed", last).group(1))

if __name__ == "__main__":
    from diagnoses import DIAG
    ids = set()
    def new_id(prefix):
        while True:
            i = prefix + "%06x" % rng.getrandbits(24)
            if i not in ids:
                ids.add(i); return i
    records, queries, keymap = [], [], {}
    for key, (fix, cause) in RECORDS.items():
        m = load(key)
        rid = new_id("r-"); keymap[key] = rid
        et = error_type(m["failure"])
        records.append({"type": "record", "id": rid, "project": m["lib"], "family": m["family"],
                        "failure": m["failure"], "error_type": et, "files": [m["file"]],
                        "fix": fix, "outcome": "pytest passed with exit code 0 (%d passed)" % passed(m["lib"]),
                        "diff": m["diff"],
                        "diagnosis": {"error_type": et, "cause": cause, "files": [m["file"]]}})
    diags = []
    for key in QUERIES:
        m = load(key)
        qid = new_id("q-"); keymap[key] = qid
        rel = [r["id"] for r in records if r["family"] == m["family"]]
        assert rel and all(r["project"] != m["lib"] for r in records if r["family"] == m["family"]), key
        assert any(r["project"] == m["lib"] and r["family"] != m["family"] for r in records), key
        et = error_type(m["failure"])
        queries.append({"type": "query", "id": qid, "project": m["lib"], "family": m["family"],
                        "failure": m["failure"], "error_type": et, "relevant": rel})
        d = DIAG[key]
        assert d.split(":")[0] == et, (key, et, d[:30])
        diags.append({"id": qid, "diagnosis": d})
    cases = records + queries
    rng.shuffle(cases)
    os.makedirs(OUTDIR, exist_ok=True)
    with open(os.path.join(OUTDIR, "cases.jsonl"), "w", encoding="utf-8") as f:
        for c in cases:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    rng.shuffle(diags)
    with open(os.path.join(OUTDIR, "diagnoses.jsonl"), "w", encoding="utf-8") as f:
        for d in diags:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    json.dump(keymap, open(os.path.join(BASE, "gen", "keymap.json"), "w"), indent=0, sort_keys=True)
    print(len(records), "records,", len(queries), "queries")
    for c in sorted(cases, key=lambda c: (c["family"], c["type"])):
        k = [k for k, v in keymap.items() if v == c["id"]][0]
        print(c["type"][0], c["family"][:32].ljust(32), c["project"].ljust(13), k.ljust(10), c["error_type"], len(c["failure"]))
