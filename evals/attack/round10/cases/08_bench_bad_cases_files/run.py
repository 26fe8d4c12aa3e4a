"""Promise (docs/cli.md "Data, exit codes": bad input is one `error:` line, exit 2, no traceback;
results.md: `bench retrieval --cases FILE` runs other case files).
Attack: `bench retrieval` (and `bench evidence`) given case files that are missing, a folder, binary,
not JSON, nested too deep for json, an empty file, a JSON array, records with wrong field types, a
line of NUL bytes, a query whose "relevant" names no record; and an --out that is a file. Each must
end with a clear error (exit 2, one line naming the file) or a result, never a traceback."""
import json
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r10 import lh, log  # noqa: E402

case = lh.Case("c08")
d = case.dir


def f(name, data):
    p = os.path.join(d, name)
    open(p, "wb" if isinstance(data, bytes) else "w").write(data)
    return p


rec = {"type": "record", "id": "r1", "project": "p", "family": "f", "scenario": "s", "failure": "AssertionError x",
       "fix": "diff", "diagnosis": "cause"}
inputs = {
    "missing": [os.path.join(d, "nope.jsonl")],
    "folder": [d],
    "binary": [f("bin.jsonl", bytes(range(256)) * 40)],
    "not json": [f("nj.jsonl", "this is not json\n")],
    "deep json": [f("deep.jsonl", "[" * 100000 + "]" * 100000 + "\n")],
    "empty": [f("empty.jsonl", "")],
    "array line": [f("arr.jsonl", "[1, 2, 3]\n")],
    "wrong types": [f("types.jsonl", json.dumps({"type": "record", "id": 5, "failure": ["x"], "project": None}) + "\n")],
    "nul bytes": [f("nul.jsonl", b"\0" * 5000 + b"\n")],
    "relevant names nothing": [f("rel.jsonl", json.dumps(rec) + "\n" + json.dumps(
        {"type": "query", "id": "q1", "failure": "AssertionError y", "relevant": ["no-such-record"]}) + "\n")],
    "huge number": [f("num.jsonl", '{"type": "query", "id": "q", "top_k": 1e999999}\n')],
}
bad = []
for label, files in inputs.items():
    for bench in ("retrieval", "evidence"):
        args = ["bench", bench, "--out", os.path.join(d, "out-" + bench)]
        for x in files:
            args += ["--cases", x]
        try:
            p = case.astra(args, timeout=240)
        except Exception as e:  # noqa: BLE001
            bad.append(f"{bench} {label}: {type(e).__name__}")
            continue
        err = p.stderr.strip().splitlines()
        tb = "Traceback" in p.stderr or "Traceback" in p.stdout
        line = (err[-1] if err else p.stdout.strip()[-200:])[:220]
        log(case, f"{bench} {label}: rc {p.returncode} traceback {tb} :: {line}")
        if tb or p.returncode not in (0, 2) or (p.returncode == 2 and not any("error" in x.lower() for x in err)):
            bad.append(f"{bench} {label}: rc {p.returncode} {'traceback ' if tb else ''}{line}")
outf = f("outfile", "x")
p = case.astra(["bench", "retrieval", "--cases", inputs["relevant names nothing"][0], "--out", outf], timeout=240)
tb = "Traceback" in p.stderr
log(case, f"--out a file: rc {p.returncode} traceback {tb} :: {p.stderr.strip()[-200:]}")
if tb or p.returncode not in (0, 2):
    bad.append(f"--out a file: rc {p.returncode}")
lh.verdict(bool(bad), f"{len(bad)} of {2 * len(inputs) + 1} inputs without a clear error: {bad[:6]}")
