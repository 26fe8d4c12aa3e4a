"""Claim (memory.md step 2, guarantees.md "What a pass means"): the second run is "judged against the
first run as confirm judges against observe, so every test that failed must pass"; skipped, xfailed
or not run counts as still failing, and pytest's exit status must be 0 and the results complete.
Attack: four commits whose "fix" makes their own new test skip (pytest.skip inside the source),
xfail (pytest.xfail), end the process with os._exit(0), or stop the session with pytest.exit(rc 0).
HELD when none of them is confirmed or stored."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

KINDS = {
    "skip": "    import pytest\n    pytest.skip('not supported on this platform')\n",
    "xfail": "    import pytest\n    pytest.xfail('known upstream bug')\n",
    "osexit": "    import os\n    os._exit(0)\n",
    "pytestexit": "    import pytest\n    pytest.exit('done', returncode=0)\n",
}
c = Case("c02")
r = c.repo("calc")
files = {"tests/test_base.py": "def test_base():\n    assert True\n"}
for k in KINDS:
    files[f"mod_{k}.py"] = f"def f_{k}(x):\n    return x - 1\n"
r.commit("initial import", files)
shas = {}
for k, body in KINDS.items():
    shas[k] = r.commit(f"Fix f_{k} returning the wrong value",
                       {f"mod_{k}.py": f"def f_{k}(x):\n{body}    return x - 1\n",
                        f"tests/test_{k}.py": f"from mod_{k} import f_{k}\n\n\ndef test_{k}():\n    assert f_{k}(1) == 1\n"})
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-1000:])
got = {k: (result_of(row_for(data, s)), (row_for(data, s) or {}).get("reason")) for k, s in shas.items()}
for k, v in got.items():
    print(k, v)
recs = c.records()
print("records", short([(x.get("file_paths"), x.get("outcome")) for x in recs], 1500))
bad = [k for k, v in got.items() if v[0] == "confirmed"]
verdict(bool(bad) or bool(recs) or data is None,
        f"confirmed={bad} records={len(recs)} verdicts={short(got, 900)}")
