"""Assemble cases.jsonl from the hand-written fam_*.py files.

Ids in the sources are readable (r-idc-1, q-idc-1, r-dx-...); in the
output they are replaced by opaque hash-based ids so an id never hints at
its family, and line order is shuffled deterministically.  The mapping is
written to gen/id_map.json.
"""
import glob, hashlib, importlib, json, os, random, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import common
for f in sorted(glob.glob(os.path.join(here, "fam_*.py"))):
    importlib.import_module(os.path.basename(f)[:-3])


def opaque(old):
    h = hashlib.sha1(("blind2:" + old).encode()).hexdigest()[:6]
    return old[0] + "-" + h


idmap = {c["id"]: opaque(c["id"]) for c in common.CASES}
assert len(set(idmap.values())) == len(idmap), "id hash collision"
recs = {}
for c in common.CASES:
    if c["type"] == "record":
        recs.setdefault(c["family"], []).append(idmap[c["id"]])
out_cases = []
for c in common.CASES:
    c = dict(c)
    c["id"] = idmap[c["id"]]
    if c["type"] == "query":
        c["relevant"] = sorted(recs.get(c["family"], []))
    out_cases.append(c)
random.Random(20261201).shuffle(out_cases)
with open(os.path.join(here, "..", "cases.jsonl"), "w", encoding="utf-8") as out:
    for c in out_cases:
        out.write(json.dumps(c, ensure_ascii=False) + "\n")
with open(os.path.join(here, "id_map.json"), "w") as fh:
    json.dump(idmap, fh, indent=1, sort_keys=True)
print(len(out_cases), "cases written")
