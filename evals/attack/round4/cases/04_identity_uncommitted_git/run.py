"""Project identity (invariant (e)): "A project is its repository: root commit(s), normalised origin and
the folder's place in the work tree". Two unrelated projects that are both `git init`ed but have no
commit yet (no root commit, no origin) -- and a control: the same two without git (dir: ids).
If the two unrelated repos get the same project_id, a fix from one is trusted/replayed in the other
as "this project's" fix (replay, recurrence, failed-attempt gate)."""
import sys, json, subprocess, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

c = Case("c04")
def mk(name, extra):
    root = c.project(name, dict(BUGGY_CALC, **extra))
    subprocess.run(["git", "init", "-q", root], check=True)
    return root
a = mk("alice-shop", {"README.md": "Alice's shop\n"})
b = mk("bobs-game", {"README.md": "Bob's unrelated game\n", "game.py": "print('hi')\n"})
# session 1 on A: a fix is confirmed and stored
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish("use addition")])
pa = parse_json(c.run_live(a, url))
print("A:", json.dumps(summary(pa)))
# session 2 on B with NO model: replay only
pb = parse_json(c.run_replay(b))
print("B:", json.dumps(summary(pb, ("status", "reason", "project_id", "replayed_memory_id", "replay_skipped"))))
same = pa.get("project_id") == pb.get("project_id") and pa.get("project_id")
replayed = bool(pb.get("replayed_memory_id"))
verdict(bool(same), f"project_id A={pa.get('project_id')} B={pb.get('project_id')} (unrelated repos); B replayed A's fix as its own: {replayed} status={pb.get('status')}")
