"""Shared helpers for the attack cases (no product source is read)."""
import atexit
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
ASTRA = os.environ.get("ASTRA_CLI", os.path.join(REPO, ".venv", "bin", "astra-memory"))
PY = os.environ.get("ASTRA_PYTHON", os.path.join(REPO, ".venv", "bin", "python"))
LIB = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("ATTACK_ROOT", "/tmp/astra-attack4")
ONNX = os.path.join(ROOT, "onnx-cache")


class Case:
    def __init__(self, name):
        self.name = name
        os.makedirs(os.path.join(ROOT, "tmp"), exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix=name + "-", dir=os.path.join(ROOT, "tmp"))
        self.home = os.path.join(self.dir, "home")
        os.makedirs(self.home)
        self.servers = []
        self.log = []
        atexit.register(self.cleanup)

    # ---- projects -------------------------------------------------------------------------
    def project(self, rel, files, git=False, origin=None):
        root = os.path.join(self.dir, rel)
        os.makedirs(root, exist_ok=True)
        for path, text in files.items():
            p = os.path.join(root, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            mode = "wb" if isinstance(text, bytes) else "w"
            with open(p, mode) as f:
                f.write(text if isinstance(text, bytes) else textwrap.dedent(text))
        if git:
            env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@a", GIT_COMMITTER_NAME="a",
                       GIT_COMMITTER_EMAIL="a@a", GIT_AUTHOR_DATE="2020-01-01T00:00:00",
                       GIT_COMMITTER_DATE="2020-01-01T00:00:00")
            subprocess.run(["git", "init", "-q", root], check=True, env=env)
            subprocess.run(["git", "-C", root, "add", "-A"], check=True, env=env)
            subprocess.run(["git", "-C", root, "commit", "-q", "-m", "init"], check=True, env=env)
            if origin:
                subprocess.run(["git", "-C", root, "remote", "add", "origin", origin], check=True)
        return root

    # ---- hostile model server -------------------------------------------------------------
    def server(self, replies, repeat_last=False, tag="srv"):
        script = os.path.join(self.dir, tag + "-script.json")
        logp = os.path.join(self.dir, tag + "-requests.jsonl")
        portf = os.path.join(self.dir, tag + "-port")
        with open(script, "w") as f:
            json.dump({"replies": replies, "repeat_last": repeat_last}, f)
        open(logp, "w").close()
        p = subprocess.Popen([sys.executable, os.path.join(LIB, "hostile_server.py"), script, logp, portf],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.servers.append(p)
        for _ in range(100):
            if os.path.exists(portf) and open(portf).read().strip():
                break
            time.sleep(0.05)
        port = open(portf).read().strip()
        return "http://127.0.0.1:%s/v1" % port, logp

    def requests(self, logp):
        out = []
        with open(logp) as f:
            for line in f:
                if line.strip():
                    out.append(json.loads(line))
        return out

    # ---- running the product --------------------------------------------------------------
    def env(self, extra=None, home=None):
        e = {
            "PATH": os.path.dirname(PY) + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": os.path.join(self.dir, "userhome"),
            "ASTRA_HOME": home or self.home,
            "ASTRA_ONNX_CACHE": ONNX,
            "ASTRA_APPROVE_EDITS": "0",
            "OPENAI_API_KEY": "sk-dummy-local-key-000",
            "LANG": "C.UTF-8",
            "COLUMNS": "200",
        }
        os.makedirs(e["HOME"], exist_ok=True)
        if extra:
            e.update(extra)
        return e

    def astra(self, args, extra_env=None, home=None, timeout=170, cwd=None, input=None):
        t = time.time()
        p = subprocess.run([ASTRA] + args, env=self.env(extra_env, home), capture_output=True, text=True,
                           timeout=timeout, cwd=cwd or self.dir, input=input)
        self.log.append((args, p.returncode, time.time() - t))
        return p

    def run_live(self, workspace, base_url, extra_args=(), extra_env=None, home=None, thread=None,
                 test_command="python -m pytest -q", timeout=170):
        args = ["run", "--workspace", workspace, "--test-command", test_command,
                "--python", PY, "--model", "openai:hostile-local", "--base-url", base_url,
                "--chat-completions", "--approve-live-cost", "--price-in", "0", "--price-out", "0",
                "--no-approve-edits", "--json"]
        if thread:
            args += ["--thread-id", thread]
        args += list(extra_args)
        return self.astra(args, extra_env, home, timeout=timeout)

    def run_replay(self, workspace, extra_args=(), extra_env=None, home=None, thread=None,
                   test_command="python -m pytest -q"):
        args = ["run", "--workspace", workspace, "--test-command", test_command, "--python", PY,
                "--no-approve-edits", "--json"]
        if thread:
            args += ["--thread-id", thread]
        args += list(extra_args)
        return self.astra(args, extra_env, home)

    def memory_list(self, home=None, attempts=False):
        args = ["memory", "list", "--json", "--all"]
        if attempts:
            args.append("--attempts")
        p = self.astra(args, home=home)
        try:
            return json.loads(p.stdout)
        except Exception:
            return {"raw": p.stdout, "err": p.stderr, "rc": p.returncode}

    def records(self, home=None):
        d = self.memory_list(home)
        if isinstance(d, dict):
            for k in ("records", "fixes", "items", "memories"):
                if k in d and isinstance(d[k], list):
                    return d[k]
        if isinstance(d, list):
            return d
        return d

    def grep_home(self, needle, home=None, skip_copies=True):
        """Every file under ASTRA_HOME holding needle (bytes); the project's own copies (pristine/,
        confirm*/ -- documented as unscrubbed) are skipped."""
        hits = []
        if isinstance(needle, str):
            needle = needle.encode()
        base = home or self.home
        for dp, dn, fn in os.walk(base):
            if skip_copies:
                dn[:] = [x for x in dn if not (x == "pristine" or x.startswith("confirm") or x == "replay-copy")]
            for f in fn:
                p = os.path.join(dp, f)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                try:
                    data = open(p, "rb").read()
                except Exception:
                    continue
                if needle in data:
                    hits.append(os.path.relpath(p, base))
        return hits

    def cleanup(self):
        for p in self.servers:
            try:
                p.terminate()
                p.wait(timeout=5)
            except Exception:
                pass


def parse_json(p):
    s = p.stdout.strip()
    try:
        return json.loads(s)
    except Exception:
        # last JSON object in output
        i = s.rfind("\n{")
        try:
            return json.loads(s[i + 1:] if i >= 0 else s)
        except Exception:
            return {"_raw_stdout": p.stdout[-3000:], "_stderr": p.stderr[-3000:], "_rc": p.returncode}


def verdict(broken, evidence):
    print(("BROKEN: " if broken else "HELD: ") + evidence)
    sys.exit(1 if broken else 0)


def diag(files, cause="the function uses the wrong operator", etype="AssertionError"):
    return {"calls": [{"name": "state_diagnosis", "args": {"error_type": etype, "cause": cause, "files": files}}]}


def edit(path, old, new):
    return {"calls": [{"name": "apply_edit", "args": {"path": path, "old_text": old, "new_text": new}}]}


def finish(desc="fixed the operator", etype="AssertionError"):
    return {"calls": [{"name": "finish", "args": {"fix_description": desc, "error_type": etype}}]}


BUGGY_CALC = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
}


def summary(d, keys=("status", "reason", "passed_outcome", "stored_memory_id", "replayed_memory_id", "project_id")):
    return {k: d.get(k) for k in keys}
