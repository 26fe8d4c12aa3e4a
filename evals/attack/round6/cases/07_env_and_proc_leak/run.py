"""Claim (cli.md "Which Python runs your tests": the tests get PATH and VIRTUAL_ENV, "no other
variables, no secrets"; guarantees.md: "no API keys or tokens in its environment", /proc/<agent>/environ
not readable; secrets never reach memory). Attack: learn runs with secrets in its own environment
(an OpenAI-shaped key, a shapeless password variable, a canary); the commit's failing test puts
os.environ, every readable /proc/*/environ and /proc/*/cmdline into its assertion message, which
learn stores as the symptom. HELD when no canary value is in memory, checkpoints or run folders."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

CANARIES = {"OPENAI_API_KEY": "sk-proj-c07" + "Q" * 40, "SERVICE_DB_PASS": "plainpw-c07-hunter", "C07_CANARY": "canary-c07-7781abcde"}
c = Case("c07")
r = base_repo(c)
test = """import glob
import os

from calc import add


def _leak():
    out = [repr(dict(os.environ))]
    for p in glob.glob("/proc/[0-9]*/environ") + glob.glob("/proc/[0-9]*/cmdline"):
        try:
            out.append(p + ":" + open(p, "rb").read().replace(b"\\0", b" ").decode("latin-1")[:3000])
        except OSError:
            pass
    return " | ".join(out)


def test_add():
    assert add(2, 3) == 5, _leak()
"""
fix = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": test})
p, data = c.learn(r.root, extra_env=CANARIES)
print("learn rc", p.returncode, p.stderr[-600:])
row = row_for(data, fix)
print("row", short(row, 600))
recs = c.records()
print("symptom", short(recs[0].get("symptom") if recs else None, 1500))
found = {k: c.grep_home(v) for k, v in CANARIES.items()}
found = {k: v for k, v in found.items() if v}
in_out = [k for k, v in CANARIES.items() if v in p.stdout or v in p.stderr]
verdict(bool(found) or bool(in_out), f"verdict={result_of(row)} records={len(recs)} canaries found under ASTRA_HOME: {found}; in learn's output: {in_out}")
