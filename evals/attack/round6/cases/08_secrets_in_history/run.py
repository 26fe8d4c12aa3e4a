"""Claim (memory.md record: "secrets ... are scrubbed from every text field"; guarantees.md
"Secrets never reach memory, logs or the model"; invariant (f): "a diff that had to be scrubbed is
stored not_replayable ... never applied"). Attack: a fix commit whose message carries an OpenAI
key, an AWS key pair, a GitHub token and a password, and a second fix commit whose source diff adds
a key. HELD when no raw key is in memory.sqlite, checkpoints.sqlite, the run folders or learn's
output, and the record with a scrubbed diff is not replayable."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

KEYS = {"openai": "sk-proj-" + "c08A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0", "akia": "AKIAC08Q7RZ4XJ2M9PLW",
        "aws_secret": "c08wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "ghp": "ghp_c08" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7",
        "password": "c08Hunter2Secret9"}
c = Case("c08")
r = c.repo("calc")
r.commit("initial import", {"calc.py": CALC_BUGGY.replace("a * b", "a ** b"), "tests/test_base.py": "def test_base():\n    assert True\n"})
msg = (f"Fix add: the deploy used OPENAI_API_KEY={KEYS['openai']} and aws_access_key_id={KEYS['akia']} "
       f"aws_secret_access_key = {KEYS['aws_secret']}\n\nGITHUB_TOKEN={KEYS['ghp']} password={KEYS['password']}")
a = r.commit(msg, {"calc.py": CALC_FIXED.replace("a * b", "a ** b"), "tests/test_add.py": ADD_TEST})
b = r.commit("Fix mul using a power", {"calc.py": f"SERVICE_TOKEN = \"{KEYS['ghp']}\"\n" + CALC_FIXED,
                                       "tests/test_mul.py": BASE_TESTS})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-600:])
print("rows", short([(result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for s in (a, b)], 800))
p2 = c.astra(["learn", "--workspace", r.root, "--python", PY, "--test-command", TEST_CMD])  # the table, learned before
recs = c.records()
for x in recs:
    print("record", short({k: x.get(k) for k in ("fix_description", "diff", "replayable", "not_replayable", "status")}, 600))
found = {k: c.grep_home(v) for k, v in KEYS.items()}
found = {k: v for k, v in found.items() if v}
outs = [k for k, v in KEYS.items() if v in p.stdout + p.stderr + p2.stdout + p2.stderr]
diff_rec = [x for x in recs if "SERVICE_TOKEN" in str(x.get("diff"))]
replayable = [x.get("memory_id") for x in diff_rec if x.get("replayable", True) is not False and not x.get("not_replayable")]
show = c.astra(["memory", "show", diff_rec[0]["memory_id"]]) if diff_rec else None
if show:
    print("show", show.stdout[-800:])
    if "replayable: no" in show.stdout:
        replayable = []
verdict(bool(found) or bool(outs) or bool(replayable) or len(recs) < 2,
        f"records={len(recs)} raw keys under ASTRA_HOME: {found}; in learn's output: {outs}; scrubbed diff still replayable: {replayable}")
