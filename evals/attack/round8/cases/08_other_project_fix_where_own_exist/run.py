"""Claim (memory.md, the bars: "Where this project has fixes of its own among the search's
candidates, another project's fix needs a cosine of 0.65 (`OTHER_PROJECT_OFFSET` 0.15; ... "never"
... a project with one fix of its own would never again be shown another project's bug of the same
kind)"; "the hits rank by the strength of their evidence first"; "within 0.05 of the best hit's fused
score"). Attack: project P (textkit) has its own history: an old fix of the very same test
(`tests/test_add.py::test_add`, add() once multiplied) and a slugify fix. Project Q (calc) has the
exact fix of the bug P now shows (add() subtracts), confirmed here by learn. A no-model session on P
with add() subtracting, and `memory search --project P`. P's own old fix is "the same failing test"
(strongest evidence) but does not apply; Q's fix is the right one, a match far above 0.65. HELD when
Q's fix is shown to the session and to the person (P's own history does not hide it)."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r8 import *

c = Case("c08")
p_repo, (fa, fb) = textkit(c)
p1, d1 = c.learn(p_repo.root)
print("learn P", p1.returncode, result_of(row_for(d1, fa)), result_of(row_for(d1, fb)))
q_repo, qfix = det_repo(c)
p2, d2 = c.learn(q_repo.root)
print("learn Q", p2.returncode, result_of(row_for(d2, qfix)))
recs = c.records()
q_id = next((x.get("memory_id") for x in recs if x.get("project") == "calc"), None)
own = [x.get("memory_id") for x in recs if x.get("project") == "textkit"]
print("records", [(x.get("memory_id"), x.get("project"), x.get("fix_description")) for x in recs])
clone = clone_of(c, p_repo, "clone", origin=P_ORIGIN)
write(clone, "calc.py", CALC_BUGGY)
pr, rep = run_ws(c, clone)
q = rep.get("memory_query") or ""
print("session", pr.returncode, rep.get("status"), "query", repr(q))
print("hits", short(rep.get("memory_hits"), 1500), "tried", short(rep.get("replay_tried"), 600), "skipped", short(rep.get("replay_skipped"), 800))
s = c.astra(["memory", "search", q or Q_ADD, "--project", clone])
print("search", s.stdout[-3000:])
sj, data = search(c, q or Q_ADD, "--project", clone, "--top-k", "10")
print("search json", short(data, 3000))
in_session = any(h.get("memory_id") == q_id for h in rep.get("memory_hits") or [])
in_search = bool(q_id) and q_id in s.stdout
score = next((h.get("score") for h in rep.get("memory_hits") or [] if h.get("memory_id") == q_id), None)
verdict(not (q_id and own and in_session and in_search),
        f"P's own fixes {len(own)}, Q's fix {q_id}; session hits {[(h.get('project'), h.get('score'), h.get('evidence')) for h in rep.get('memory_hits') or []]}; "
        f"Q's fix shown to the session: {in_session} (score {score}); to the person: {in_search}; session {rep.get('status')}")
