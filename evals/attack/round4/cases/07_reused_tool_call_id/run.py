"""Model server that reuses one tool-call id on every turn (as some OpenAI-compatible local servers do:
a fixed "call_0"). The second apply_edit is told "applied" -- with the FIRST edit's diff -- but is never
written: the edit is lost, and the correct fix ends `unconfirmed` ("changed ... by something else").
Promises: "nothing lost or done twice"; "an answered edit is applied once"; edits are journaled and
reconciled by hashes (not by a server-chosen id)."""
import sys, json, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c07")
ws = c.project("proj", BUGGY_CALC)
CID = "call_0"
replies = [
    {"calls": [{"name": "state_diagnosis", "args": {"error_type": "AssertionError", "cause": "wrong operator", "files": ["calc.py"]}, "id": CID}]},
    {"calls": [{"name": "apply_edit", "args": {"path": "calc.py", "old_text": "a - b", "new_text": "b + a  # step 1"}, "id": CID}]},
    {"calls": [{"name": "apply_edit", "args": {"path": "calc.py", "old_text": "b + a  # step 1", "new_text": "a + b"}, "id": CID}]},
    {"calls": [{"name": "finish", "args": {"fix_description": "use addition", "error_type": "AssertionError"}, "id": CID}]},
]
url, logp = c.server(replies)
d = parse_json(c.run_live(ws, url))
print(json.dumps(summary(d, ("status", "reason", "stored_memory_id")), indent=1))
reqs = c.requests(logp)
obs = [str(r["body"]["messages"][-1].get("content"))[:200] for r in reqs]
print("observation for the 2nd edit:", obs[3] if len(obs) > 3 else obs)
final = open(ws + "/calc.py").read()
print("calc.py now:", repr(final))
lost = "# step 1" in final and len(obs) > 3 and obs[3].startswith("applied")
verdict(lost, f"2nd apply_edit answered {obs[3][:90]!r}... but calc.py is {final.splitlines()[1].strip()!r}; status={d.get('status')}: {d.get('reason')}")
