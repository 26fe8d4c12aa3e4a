"""Claim (memory.md: "A project's own fixes have a candidate pool of their own ... so other
projects' fixes cannot crowd them out of the 40 candidates. Why: a project with its own history in
memory finds its relevant fixes there"; a hit is shown on evidence when it is "this project's fix
... for one of the same failing tests"; "the hits rank by the strength of their evidence first";
imported records are "another installation's word ... judged as another project's fix"; replay
"tries the confirmed fixes the memory search returned"). Attack: project P's own slugify fix X is
learned, its commit message with a body of a few lines, as real commits have (learn stores the
message as the fix description, so it is embedded with the symptom). Control: the slugify bug comes
back in a clone: X is shown and replayed. Then a file is imported: 45 records of 45 other projects
whose symptom is X's own symptom, word for word, with a short description and other diffs (a
hostile file, or just many forks' memories). The same session again. HELD when X is still shown as
this project's fix for the same failing test and the session is still fixed by X's replay."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

MSG = ("Fix slugify separator\n\nslugify() joined words with an underscore while every caller and the\n"
       "URL router expect dashes; the old behaviour came from the first prototype of the\n"
       "CMS export and was never revisited. This also documents the contract in the\n"
       "docstring and keeps the lower-casing as it was. Reported by the docs team.\n")
c = Case("c09")
r, (fa, fb) = project(c, "textkit", P_ORIGIN, {"calc.py": CALC_MULBUG, "slug.py": SLUG_BAD, "tests/test_mul.py": BASE_TESTS},
                      [("Fix add multiplying", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST}),
                       (MSG, {"slug.py": SLUG_OK, "tests/test_slug.py": T_SLUG})])
p, data = c.learn(r.root)
print("learn", p.returncode, result_of(row_for(data, fa)), result_of(row_for(data, fb)))
lines = export_lines(c)
X = next(x for x in lines if "slug" in str(x.get("diff")))
x_id = X["memory_id"]
print("X", x_id, repr(X.get("fix_description")), repr(X.get("symptom")))


def session(tag):
    clone = clone_of(c, r, "clone-" + tag, origin=P_ORIGIN)
    write(clone, "slug.py", SLUG_BAD)
    pr, rep = run_ws(c, clone)
    q = rep.get("memory_query") or ""
    s = c.astra(["memory", "search", q or "x", "--project", clone])
    hits = [(h.get("memory_id") == x_id, h.get("project"), h.get("score"), h.get("evidence")) for h in rep.get("memory_hits") or []]
    shown = any(h[0] for h in hits) and x_id in s.stdout
    fixed = rep.get("status") == "fixed" and rep.get("replayed_memory_id") == x_id
    print(tag, pr.returncode, rep.get("status"), "hits", hits, "tried", short(rep.get("replay_tried"), 600), "search", s.stdout[-1500:])
    return shown, fixed, hits, rep.get("status")


before = session("before")
foreign = []
for i in range(45):
    rec = dict(X)
    rec.pop("learned_from", None)
    rec["project"] = f"fork{i}"
    rec["project_id"] = f"git:{i:032x}"
    rec["fix_description"] = "slugify"
    rec["diff"] = X["diff"].replace("replace(' ', '-')", f"replace(' ', '-')  # {i}")
    rec["confirmations"] = [dict(cf, project=rec["project"], project_id=rec["project_id"], session_id=f"s{i}", thread_id=f"t{i}")
                            for cf in X.get("confirmations") or []]
    foreign.append(rec)
imp1, _ = import_fixing_id(c, foreign[:1], name="one.jsonl", rounds=3)
after1 = session("after-one")
imp, _ = import_fixing_id(c, foreign[1:], rounds=6)
print("import", imp.returncode, (imp.stdout + imp.stderr)[-400:])
after = session("after")
verdict(imp.returncode != 0 or not (before[0] and before[1] and after1[0] and after1[1] and after[0] and after[1]),
        f"import rc {imp.returncode}; before the import: X shown {before[0]}, fixed by X {before[1]} ({before[3]}); "
        f"after ONE foreign record with X's symptom: X shown {after1[0]}, fixed by X {after1[1]} ({after1[3]}); hits {after1[2]}; "
        f"after 45 foreign records with X's symptom: X shown {after[0]}, fixed by X {after[1]} ({after[3]}); hits after: {after[2]}")
