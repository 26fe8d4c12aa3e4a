"""Hostile model server: tool-call arguments that are valid-looking JSON nested 100,000 deep (json.loads
raises RecursionError, not a JSONDecodeError), a number 1e999 (inf) for top_k, duplicate keys, then the
real fix. Promise: "No tool call crashes or hangs a session" -- malformed arguments are answered as an
error observation and the session goes on."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c08")
ws = c.project("proj", BUGGY_CALC)
deep = '{"path": ' + "[" * 100000 + "]" * 100000 + "}"
replies = [
    {"calls": [{"name": "read_file", "raw": deep}]},
    {"calls": [{"name": "search_codebase_memory", "raw": '{"query": "x", "error_type": null, "top_k": 1e999}'}]},
    {"calls": [{"name": "read_file", "raw": '{"path": "calc.py", "path": "../../../../etc/passwd"}'}]},
    diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish(),
]
url, logp = c.server(replies)
p = c.run_live(ws, url, extra_args=["--max-invalid-turns", "5"])
d = parse_json(p)
print("rc", p.returncode, json.dumps(summary(d, ("status", "reason", "stored_memory_id")), indent=1))
print("stderr tail:", p.stderr[-800:])
for r in c.requests(logp)[1:4]:
    print("obs:", str(r["body"]["messages"][-1].get("content"))[:200])
passwd_leak = any("root:x:0:0" in json.dumps(r["body"]) for r in c.requests(logp))
broken = d.get("status") not in ("fixed",) or passwd_leak or "Traceback" in p.stderr
verdict(broken, f"rc={p.returncode} status={d.get('status')} reason={str(d.get('reason') or d.get('_stderr',''))[:200]!r} passwd_leak={passwd_leak}")
