#!/usr/bin/env python3
"""Validate blind-4 (stdlib only): python3 check.py"""
import json, os, re, sys, collections
HERE = os.path.dirname(os.path.abspath(__file__))
errors = []
def err(m): errors.append(m)

def load(name):
    out = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError as e:
                err("%s:%d invalid JSON: %s" % (name, n, e))
    return out

def check_diff(rid, diff, files):
    lines = diff.splitlines()
    minus = [l[4:].split("\t")[0] for l in lines if l.startswith("--- ")]
    plus = [l[4:].split("\t")[0] for l in lines if l.startswith("+++ ")]
    if not minus or len(minus) != len(plus):
        return err("%s: diff has no/unequal ---/+++ headers" % rid)
    named = set()
    for a, b in zip(minus, plus):
        if not (a.startswith("a/") and b.startswith("b/")) or a[2:] != b[2:]:
            err("%s: bad diff header %r %r" % (rid, a, b))
        named.add(b[2:])
    if named != set(files):
        err("%s: diff names %s but files are %s" % (rid, sorted(named), files))
    # hunks: counts must match the body
    i, hunks = 0, 0
    while i < len(lines):
        m = re.match(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", lines[i])
        if not m:
            i += 1; continue
        hunks += 1
        old = int(m.group(2) or 1); new = int(m.group(4) or 1)
        i += 1
        changed = 0
        while i < len(lines) and (old > 0 or new > 0):
            l = lines[i]
            if l.startswith("\\"):
                i += 1; continue
            t = l[:1]
            if t == " " or l == "":
                old -= 1; new -= 1
            elif t == "-":
                old -= 1; changed += 1
            elif t == "+":
                new -= 1; changed += 1
            else:
                break
            i += 1
        if old != 0 or new != 0:
            err("%s: hunk line counts do not match" % rid)
        if not changed:
            err("%s: hunk without changes" % rid)
    if not hunks:
        err("%s: diff has no hunks" % rid)

cases = load("cases.jsonl")
diags = load("diagnoses.jsonl")
ids = [c.get("id") for c in cases]
for i, n in collections.Counter(ids).items():
    if n > 1: err("duplicate id %s" % i)
REQ = {"record": ["type", "id", "project", "family", "failure", "error_type", "files", "fix", "outcome", "diff", "diagnosis"],
       "query": ["type", "id", "project", "family", "failure", "error_type", "relevant"]}
records = [c for c in cases if c.get("type") == "record"]
queries = [c for c in cases if c.get("type") == "query"]
for c in cases:
    t = c.get("type")
    if t not in REQ:
        err("bad type %r for %s" % (t, c.get("id"))); continue
    for k in REQ[t]:
        if k not in c or c[k] in ("", None, []):
            err("%s missing/empty field %s" % (c.get("id"), k))
    if not re.fullmatch(("r" if t == "record" else "q") + r"-[0-9a-f]{6}", str(c.get("id"))):
        err("bad id %r" % c.get("id"))
    if not re.search(r"(FAILED|ERROR|failed|error)", c.get("failure", "")):
        err("%s: failure text shows no failing test" % c["id"])
for r in records:
    if not re.fullmatch(r"pytest passed with exit code 0 \(\d+ passed\)", r.get("outcome", "")):
        err("%s: bad outcome %r" % (r["id"], r.get("outcome")))
    if not isinstance(r.get("files"), list):
        err("%s: files not a list" % r["id"]); continue
    check_diff(r["id"], r.get("diff", ""), r["files"])
    dg = r.get("diagnosis")
    if not isinstance(dg, dict) or set(dg) != {"error_type", "cause", "files"}:
        err("%s: diagnosis must be an object with error_type, cause, files" % r["id"])
    else:
        if dg["error_type"] != r.get("error_type"):
            err("%s: diagnosis.error_type %r != error_type %r" % (r["id"], dg["error_type"], r.get("error_type")))
        if dg["files"] != r["files"]:
            err("%s: diagnosis.files != files" % r["id"])
        if not isinstance(dg["cause"], str) or len(dg["cause"].split()) < 5:
            err("%s: diagnosis.cause missing or too short" % r["id"])
byfam = collections.defaultdict(set)
for r in records:
    byfam[r["family"]].add(r["id"])
rec_by_id = {r["id"]: r for r in records}
for q in queries:
    rel = q.get("relevant") or []
    if set(rel) != byfam.get(q["family"], set()) or len(rel) != len(set(rel)):
        err("%s: relevant != records of family %s" % (q["id"], q["family"]))
    for r in rel:
        if r not in rec_by_id:
            err("%s: relevant %s is not a record" % (q["id"], r))
        elif rec_by_id[r]["project"] == q["project"]:
            err("%s: relevant %s from the query's own project" % (q["id"], r))
# identity trap: every query's own project must also have a record of another family
for q in queries:
    if not any(r["project"] == q["project"] and r["family"] != q["family"] for r in records):
        err("%s: project %s has no record of another family" % (q["id"], q["project"]))
# every query's family must have records, and every query lists them
for q in queries:
    if not byfam.get(q["family"]):
        err("%s: family %s has no records" % (q["id"], q["family"]))
qtypes = {q["id"]: q for q in queries}
dmap = {}
for d in diags:
    if d.get("id") in dmap: err("duplicate diagnosis for %s" % d.get("id"))
    dmap[d.get("id")] = d.get("diagnosis")
    if not d.get("diagnosis") or not re.match(r"^[A-Za-z_]\w*: \S", d["diagnosis"]):
        err("bad diagnosis for %s" % d.get("id"))
qids = {q["id"] for q in queries}
for i, d in dmap.items():
    q = qtypes.get(i)
    if q and d:
        if not d.startswith(q["error_type"] + ":"):
            err("%s: diagnosis does not start with the query's error_type %s" % (i, q["error_type"]))
        if q["family"].lower() in d.lower():
            err("%s: diagnosis names the family label" % i)
        if "likely" not in d:
            err("%s: diagnosis lacks 'likely'" % i)
for q in queries:
    if q["id"] not in dmap: err("%s has no diagnosis" % q["id"])
for i in dmap:
    if i not in qids: err("diagnosis for unknown query %s" % i)

qfam = collections.Counter(q["family"] for q in queries)
rfam = collections.Counter(r["family"] for r in records)
print("records: %d  queries: %d  diagnoses: %d" % (len(records), len(queries), len(diags)))
libs_q = {q["project"] for q in queries}; libs_r = {r["project"] for r in records}
print("families: %d (%d with queries)  libraries: %d (%d with both queries and records)" % (
    len(set(qfam) | set(rfam)), len(qfam), len(libs_q | libs_r), len(libs_q & libs_r)))
print("projects:", ", ".join("%s(%d)" % kv for kv in sorted(collections.Counter(c["project"] for c in cases).items())))
for f in sorted(set(qfam) | set(rfam)):
    print("  %-34s records=%d queries=%d%s" % (f, rfam[f], qfam[f], "  (distractor)" if not qfam[f] else ""))
if errors:
    print("\n".join("ERROR: " + e for e in errors)); sys.exit(1)
print("OK")
