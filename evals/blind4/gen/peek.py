"""Print failing test ids and 'E ' lines of captured outputs (ANSI stripped) - used to read outputs when writing diagnoses."""
import re, sys, os
BASE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ansi = re.compile(r"\x1b\[[0-9;]*m")
for k in sys.argv[1:]:
    t = ansi.sub("", open(os.path.join(BASE, "runs", "cand", k + ".txt")).read())
    fails = [l for l in t.splitlines() if l.startswith(("FAILED", "ERROR", "SUBFAILED"))]
    es = [l for l in t.splitlines() if l.startswith("E ")]
    print("=====", k, len(t)); print("\n".join(fails[:8])); print("\n".join(dict.fromkeys(es[:14])))
