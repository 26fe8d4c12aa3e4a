#!/usr/bin/env python3
"""Validate /work/blind2_out/cases.jsonl (stdlib only)."""
import json, os, re, sys
from collections import Counter, defaultdict

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.jsonl")
FORBIDDEN = set("""float-money key-normalisation mutable-default naive-datetime off-by-one
split-whitespace truthy-string unicode-casefold cycle-without-visited-set enum-member-vs-value
missing-return recursion-no-base-case str-int-compare trailing-newline typo-in-key-constant
unset-optional-setting broad-except-swallow bytes-str-mismatch cache-key-missing-arg
cache-unhashable-arg csv-naive-split csv-newline-translation cwd-relative-path
dst-wallclock-arithmetic epoch-milliseconds fixed-utc-offset float-equality-tolerance
generator-exhausted integer-division-truncation late-binding-closure lazy-generator-validation
leap-day-year-replace lexicographic-numeric-sort locale-decimal-separator missing-nonlocal
month-end-overflow mutation-during-iteration optional-key-access path-join-absolute
percent-string-scale regex-greedy-quantifier regex-missing-anchor reversed-slice-tiebreak
round-half-even shallow-copy-aliasing signed-struct-format sort-returns-none uint32-mask-missing
url-double-encoding urljoin-base-without-slash utf8-bom-header wrong-exception-type""".split())
REC_KEYS = {"type", "id", "project", "family", "failure", "error_type", "files", "fix", "outcome", "diff"}
Q_KEYS = {"type", "id", "project", "family", "failure", "error_type", "relevant"}

errors = []
def err(msg):
    errors.append(msg)

cases = []
with open(PATH, encoding="utf-8") as fh:
    for n, line in enumerate(fh, 1):
        if not line.strip():
            err(f"line {n}: blank line")
            continue
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError as e:
            err(f"line {n}: invalid JSON: {e}")

ids = Counter(c.get("id") for c in cases)
for i, k in ids.items():
    if k > 1:
        err(f"duplicate id {i}")

records = [c for c in cases if c.get("type") == "record"]
queries = [c for c in cases if c.get("type") == "query"]
for c in cases:
    if c.get("type") not in ("record", "query"):
        err(f"{c.get('id')}: bad type {c.get('type')!r}")

fam_recs = defaultdict(set)
for r in records:
    missing = REC_KEYS - set(r)
    extra = set(r) - REC_KEYS
    if missing or extra:
        err(f"{r['id']}: missing {sorted(missing)} extra {sorted(extra)}")
    if not r["id"].startswith("r-"):
        err(f"{r['id']}: record id must start with r-")
    fam_recs[r["family"]].add(r["id"])
    if not (isinstance(r.get("files"), list) and r["files"]):
        err(f"{r['id']}: files must be a non-empty list")
    d = r.get("diff", "")
    if not (d.startswith("--- a/") and "\n+++ b/" in d and "\n@@ " in d):
        err(f"{r['id']}: diff does not look like a unified diff")
    for f in r.get("files", []):
        if f"+++ b/{f}" not in d:
            err(f"{r['id']}: file {f} not in diff")
    if not r.get("fix") or not r.get("outcome"):
        err(f"{r['id']}: empty fix/outcome")

fam_q = defaultdict(list)
for q in queries:
    missing = Q_KEYS - set(q)
    extra = set(q) - Q_KEYS
    if missing or extra:
        err(f"{q['id']}: missing {sorted(missing)} extra {sorted(extra)}")
    if not q["id"].startswith("q-"):
        err(f"{q['id']}: query id must start with q-")
    fam_q[q["family"]].append(q["id"])
    rel = set(q.get("relevant", []))
    if len(rel) != len(q.get("relevant", [])):
        err(f"{q['id']}: duplicate relevant ids")
    for rid in rel:
        if rid not in ids:
            err(f"{q['id']}: relevant id {rid} does not exist")
    if rel != fam_recs.get(q["family"], set()):
        err(f"{q['id']}: relevant {sorted(rel)} != family records {sorted(fam_recs.get(q['family'], set()))}")
    for bad in ("diff", "fix", "outcome"):
        if bad in q:
            err(f"{q['id']}: query must not carry {bad}")

for c in cases:
    if c.get("family") in FORBIDDEN:
        err(f"{c['id']}: forbidden family {c['family']}")
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", c.get("family", "")):
        err(f"{c['id']}: bad family slug {c.get('family')!r}")
    if not c.get("failure", "").strip():
        err(f"{c['id']}: empty failure")

projects = Counter(c.get("project") for c in cases)
for p, k in projects.items():
    if k > 1:
        err(f"project {p!r} used by {k} cases (each case must be its own project)")

q_fams = sorted(fam_q)
distractor_fams = sorted(set(fam_recs) - set(fam_q))
distractors = [r for r in records if r["family"] in distractor_fams]
for f in q_fams:
    if len(fam_q[f]) < 4:
        err(f"family {f}: only {len(fam_q[f])} queries (need 4)")
    if not 2 <= len(fam_recs.get(f, ())) <= 3:
        err(f"family {f}: {len(fam_recs.get(f, ()))} records (need 2-3)")
if len(q_fams) < 16:
    err(f"only {len(q_fams)} families with queries (need >= 16)")
if len(queries) < 64:
    err(f"only {len(queries)} queries (need >= 64)")
if len(distractors) < 12:
    err(f"only {len(distractors)} distractor records (need >= 12)")

unittest_n = sum(1 for c in cases if "Ran " in c["failure"] and "-" * 70 in c["failure"])
color_n = sum(1 for c in cases if "\x1b[" in c["failure"])
print(f"cases: {len(cases)}  records: {len(records)}  queries: {len(queries)}")
print(f"families with queries: {len(q_fams)}  distractor families: {len(distractor_fams)}  distractor records: {len(distractors)}")
print(f"unittest-style failures: {unittest_n}  coloured failures: {color_n}")
if errors:
    print(f"\n{len(errors)} problem(s):")
    for e in errors:
        print("  -", e)
    sys.exit(1)
print("OK")
