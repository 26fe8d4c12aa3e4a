"""Hostile model server: tool-call ids that are paths ("../../../<case dir>/PWNED_ID_n", absolute paths,
NUL, 5000 characters). If an id is ever used to name a file (edit journals, observations),
a file lands outside the run folder. Promise: file operations stay inside the workspace/run folder;
no tool call crashes a session."""
import sys, json, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c06")
ws = c.project("proj", BUGGY_CALC)
up = "../" * 30
ids = [up + c.dir.lstrip("/") + "/PWNED_ID_1", c.dir + "/PWNED_ID_2", "PWNED_ID_3/../../../../../../" + c.dir.lstrip("/") + "/PWNED_ID_3b",
       "x\x00PWNED_ID_4", "PWNED_ID_5" * 500, "PWNED_ID_7/../../../../../../../../tmp/PWNED_ID_7"]
replies = [
    {"calls": [{"name": "read_file", "args": {"path": "calc.py"}, "id": ids[0]}]},
    {"calls": [{"name": "state_diagnosis", "args": {"error_type": "AssertionError", "cause": "wrong operator", "files": ["calc.py"]}, "id": ids[1]}]},
    {"calls": [{"name": "apply_edit", "args": {"path": "calc.py", "old_text": "a - b", "new_text": "a * 1 + b"}, "id": ids[2]}]},
    {"calls": [{"name": "apply_edit", "args": {"path": "calc.py", "old_text": "a * 1 + b", "new_text": "a + b * 1"}, "id": ids[3]}]},
    {"calls": [{"name": "list_files", "args": {"path": "."}, "id": ids[4]}]},
    {"calls": [{"name": "apply_edit", "args": {"path": "calc.py", "old_text": "a + b * 1", "new_text": "a + b"}, "id": ids[5]}]},
    {"calls": [{"name": "finish", "args": {"fix_description": "use addition", "error_type": "AssertionError"}, "id": "../../../../PWNED_ID_6"}]},
]
url, logp = c.server(replies)
p = c.run_live(ws, url)
d = parse_json(p)
print(json.dumps(summary(d), indent=1), p.stderr[-600:])
escaped = []
for root in (ROOT, "/tmp", "/"):
    pass
for dp, dn, fn in os.walk(os.path.join(ROOT, "tmp")):
    for n in dn + fn:
        if "PWNED_ID" in n:
            full = os.path.join(dp, n)
            if not full.startswith(os.path.join(c.home, "runs")):
                escaped.append(full)
for n in os.listdir("/tmp"):
    if "PWNED_ID" in n:
        escaped.append("/tmp/" + n)
inside = [os.path.join(dp, n) for dp, dn, fn in os.walk(c.home) for n in dn + fn if "PWNED_ID" in n]
print("named by id inside home:", inside[:5])
edits = d.get("edits") or []
applied = [e.get("path") for e in edits]
broken = bool(escaped) or d.get("status") in ("error", None) or len(applied) != len(set(map(str, range(len(applied))))) and False
verdict(bool(escaped) or d.get("status") in ("error", None),
        f"status={d.get('status')}; files named from tool-call ids outside the run folder: {escaped[:3]}; edits={len(edits)}")
