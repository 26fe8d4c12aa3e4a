"""(An empty --namespace or ASTRA_NAMESPACE is the shared default by design, stores/namespaces.py: not swept.)
Bad input from a user or a script, a sweep: each must end with a clear one-line `error:` (exit 2
for bad input), no traceback (cli.md: "one `error:` line, no traceback"). Inputs are what a hurried
user or a hostile wrapper passes: odd numbers, odd names, files that are not what they claim."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

c = Case("c09")
ws = c.project("proj", dict(BUGGY_CALC))
os.makedirs(c.dir + "/adir", exist_ok=True)
open(c.dir + "/binary.jsonl", "wb").write(b"\x00\xff\xfe" * 100)
open(c.dir + "/afile", "w").write("x")
open(c.dir + "/huge-int.jsonl", "w").write('{"memory_id": 1e999999}\n')
open(c.dir + "/deep.jsonl", "w").write("[" * 100000 + "]" * 100000 + "\n")
L = ["run", "--workspace", ws, "--test-command", "python -m pytest -q", "--python", PY, "--no-approve-edits",
     "--model", "openai:gpt-4.1-mini", "--approve-live-cost", "--base-url", "http://127.0.0.1:9/v1"]
R = ["run", "--workspace", ws, "--test-command", "python -m pytest -q", "--python", PY, "--no-approve-edits"]
CASES = {
    "max-model-requests nan": (R + ["--max-model-requests", "nan"], {}),
    "live, budget nan": (L + ["--budget", "nan"], {}),
    "live, budget inf": (L + ["--budget", "inf"], {}),
    "live, budget -1": (L + ["--budget", "-1"], {}),
    "live, env ASTRA_SESSION_BUDGET_USD=nan": (L, {"ASTRA_SESSION_BUDGET_USD": "nan"}),
    "env ASTRA_MAX_MODEL_REQUESTS=abc": (R, {"ASTRA_MAX_MODEL_REQUESTS": "abc"}),
    "env ASTRA_MAX_ATTEMPTS=1000 (the option's max is 20)": (R, {"ASTRA_MAX_ATTEMPTS": "1000"}),
    "env ASTRA_MAX_TOOL_CALLS=-3": (R, {"ASTRA_MAX_TOOL_CALLS": "-3"}),
    "ASTRA_HOME is a file": (["memory", "list"], {"ASTRA_HOME": c.dir + "/afile"}),
    "ASTRA_HOME under a file": (["threads"], {"ASTRA_HOME": c.dir + "/afile/sub"}),
    "namespace ..": (["memory", "--namespace", "../x", "list"], {}),
    "namespace newline": (["memory", "--namespace", "a\nb", "list"], {}),
    "import a directory": (["memory", "import", c.dir + "/adir"], {}),
    "import binary": (["memory", "import", c.dir + "/binary.jsonl"], {}),
    "import 1e999999": (["memory", "import", c.dir + "/huge-int.jsonl"], {}),
    "import 100k-deep json": (["memory", "import", c.dir + "/deep.jsonl"], {}),
    "import /dev/zero": (["memory", "import", "/dev/zero"], {}),
    "export to a directory": (["memory", "export", c.dir + "/adir"], {}),
    "search top-k 0": (["memory", "search", "x", "--top-k", "0"], {}),
    "search top-k 10^12": (["memory", "search", "x", "--top-k", "1000000000000"], {}),
    "search empty query": (["memory", "search", ""], {}),
    "show empty id": (["memory", "show", ""], {}),
    "show prefix -": (["memory", "show", "-"], {}),
    "database-url garbage": (["--database-url", "nosuch://x", "threads"], {}),
    "database-url postgres bad port": (["--database-url", "postgresql://u:pw@127.0.0.1:1/x", "threads"], {}),
    "env ASTRA_DATABASE_URL=garbage": (["memory", "list"], {"ASTRA_DATABASE_URL": "::::"}),
    "test-command empty": (["run", "--workspace", ws, "--test-command", "", "--no-approve-edits"], {}),
    "workspace with NUL-like name": (["run", "--workspace", ws + "/\u2028x", "--test-command", "pytest", "--no-approve-edits"], {}),
    "cost --thread ..": (["cost", "--thread", ".."], {}),
    "undo unknown": (["undo", "nosuch"], {}),
    "learn --max-commits -1": (["learn", "--workspace", ws, "--max-commits", "-1"], {}),
    "learn --since garbage": (["learn", "--workspace", ws, "--since", "no-such-rev"], {}),
}
bad = {}
for label, (args, env) in CASES.items():
    p = c.astra(args, extra_env=env, timeout=120)
    err = p.stderr.strip()
    lines = [l for l in err.splitlines() if l.strip()]
    tb = "Traceback" in err or "Traceback" in p.stdout
    usage_panel = "Invalid value" in err  # the option parser's own usage error (a box of a few lines)
    ran = "· observe" in err  # a session ran: the bad value was taken
    one = p.returncode != 0 and bool(lines) and not tb and not ran and (len(lines) <= 4 or usage_panel)
    log(c, f"[{label}] rc={p.returncode} tb={tb} lines={len(lines)} :: {err[-300:]!r} :: {p.stdout[-150:]!r}")
    if not one:
        bad[label] = (p.returncode, tb, len(lines), (err or p.stdout)[-160:])
verdict(bool(bad), f"{len(bad)} of {len(CASES)} inputs without a clear error line: " + json.dumps(bad))
