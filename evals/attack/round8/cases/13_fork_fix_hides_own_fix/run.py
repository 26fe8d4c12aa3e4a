"""Claim (as case 09, without any file: memory.md, "A project's own fixes have a candidate pool of
their own ... a project with its own history in memory finds its relevant fixes there"; the
evidence rule: "this project's fix ... for one of the same failing tests" is shown on evidence, and
the hits "rank by the strength of their evidence first"; replay "tries the confirmed fixes the
memory search returned"). Attack, with no hostile input at all: project P's slugify fix X is learned
(its commit message has a body, as real ones do); a fork of P (same root commit, another remote:
another project, memory.md) fixed the same bug its own way, with a two-word commit message (`fix slug`), and is
learned in the same installation. Then the slugify bug comes back in a clone of P: a no-model
session and `memory search --project`. HELD when X, this project's own confirmed fix for the very
same failing test, is shown and replayed (the fork's fix is another project's: never replayed unasked
here)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

MSG = ("Fix slugify separator\n\nslugify() joined words with an underscore while every caller and the\n"
       "URL router expect dashes; the old behaviour came from the first prototype of the\n"
       "CMS export and was never revisited. This also documents the contract in the\n"
       "docstring and keeps the lower-casing as it was. Reported by the docs team.\n")
FIRST = {"calc.py": CALC_MULBUG, "slug.py": SLUG_BAD, "tests/test_mul.py": BASE_TESTS}
FORK_OK = "def slugify(s):\n    return '-'.join(s.lower().split(' '))\n"
c = Case("c13")
r, (fa, fb) = project(c, "textkit", P_ORIGIN, FIRST,
                      [("Fix add multiplying", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST}),
                       (MSG, {"slug.py": SLUG_OK, "tests/test_slug.py": T_SLUG})])
p, data = c.learn(r.root)
print("learn P", p.returncode, result_of(row_for(data, fa)), result_of(row_for(data, fb)))
fork, (ff,) = project(c, "textkit-fork", P_ORIGIN.replace("team", "someone"), FIRST,
                      [("fix slug", {"slug.py": FORK_OK, "tests/test_slug.py": T_SLUG})])
p2, d2 = c.learn(fork.root)
print("learn fork", p2.returncode, result_of(row_for(d2, ff)))
recs = c.records()
x_id = next((x.get("memory_id") for x in recs if x.get("project_id") and "slug" in str(x.get("diff")) and "Fix slugify" in str(x.get("fix_description"))), None)
print("records", [(x.get("memory_id"), x.get("project"), x.get("project_id"), str(x.get("fix_description"))[:30]) for x in recs])
clone = clone_of(c, r, "clone", origin=P_ORIGIN)
write(clone, "slug.py", SLUG_BAD)
pr, rep = run_ws(c, clone)
q = rep.get("memory_query") or ""
hits = [(h.get("memory_id") == x_id, h.get("project"), h.get("score"), h.get("evidence")) for h in rep.get("memory_hits") or []]
print("session", pr.returncode, rep.get("status"), "hits", hits, "tried", short(rep.get("replay_tried"), 800))
s = c.astra(["memory", "search", q or "x", "--project", clone])
print("search", s.stdout[-2000:])
a = c.astra(["memory", "search", q or "x", "--project", clone, "--json", "--top-k", "10"], extra_env={"ASTRA_MIN_SCORE": "0"})
print("every rank", a.stdout[:200])
try:
    import json as _j
    ranks = [(h.get("project"), h.get("score"), h.get("fused"), h.get("evidence")) for h in _j.loads(a.stdout)]
except Exception:
    ranks = a.stdout[-500:]
try:
    mtext, _ = mcp_call(c, "search_fixes", {"failure": q, "project": clone}, allow=c.src)
except Exception as e:  # the MCP path is extra evidence; its failure is printed, not judged
    mtext = f"mcp failed: {e!r}"
print("mcp search_fixes", mtext[-1500:])
mcp_shown = bool(x_id) and x_id in mtext
shown = any(h[0] for h in hits) and bool(x_id) and x_id in s.stdout
fixed = rep.get("status") == "fixed" and rep.get("replayed_memory_id") == x_id
verdict(not (shown and fixed), f"X ({x_id}) shown: {shown}; fixed by X's replay: {fixed} (session {rep.get('status')}); session hits {hits}; "
        f"X in MCP search_fixes(project=P): {mcp_shown}; every rank (ASTRA_MIN_SCORE=0: project, score, fused, evidence): {ranks}")
