"""Invariant (f): replay applies byte for byte the diff that was confirmed; CRLF, a BOM and a missing
final newline are kept. A CRLF + BOM file without a final newline is fixed by a model whose new_text
uses LF and adds a line; a second clone of the same repository (same project id) with the same bug is
then fixed by replay with no model. The replayed file must be byte-identical to the confirmed one and
keep its CRLF/BOM."""
import sys, json, os, subprocess
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c19")
src = "\ufeff# calc\r\ndef add(a, b):\r\n    return a - b".encode("utf-8")
files = {"calc.py": src, "tests/test_calc.py": BUGGY_CALC["tests/test_calc.py"]}
ORIGIN = "https://example.org/team/crlf-calc.git"
a = c.project("a/crlf-calc", files, git=True, origin=ORIGIN)
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "    return a - b", "    total = a + b\n    return total"), finish()])
da = parse_json(c.run_live(a, url))
print("A:", json.dumps(summary(da)))
fixed_a = open(a + "/calc.py", "rb").read()
subprocess.run(["git", "clone", "-q", a, c.dir + "/b/crlf-calc"], check=True)
b = c.dir + "/b/crlf-calc"
subprocess.run(["git", "-C", b, "remote", "set-url", "origin", ORIGIN], check=True)
# the clone may normalise line ends; make sure b has the original bytes
open(b + "/calc.py", "wb").write(src)
db = parse_json(c.run_replay(b))
print("B:", json.dumps(summary(db, ("status", "reason", "replayed_memory_id", "project_id")))[:600])
fixed_b = open(b + "/calc.py", "rb").read()
print("A bytes:", fixed_a)
print("B bytes:", fixed_b)
BOM = "\ufeff".encode()
crlf_kept = b"\r\n" in fixed_a and b"\n" not in fixed_a.replace(b"\r\n", b"")
ok = da.get("status") == "fixed" and db.get("replayed_memory_id") and fixed_a == fixed_b and crlf_kept and fixed_a.startswith(b"\xef\xbb\xbf")
bom = fixed_a.startswith(BOM)
verdict(not ok, f"A {da.get('status')} B {db.get('status')} replayed={db.get('replayed_memory_id')}; bytes identical={fixed_a == fixed_b}; only CRLF in A={crlf_kept}; BOM kept={bom}")
