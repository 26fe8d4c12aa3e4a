"""Shared helpers for the round-5 attack cases against `astra-memory mcp` (no product source read).

A case builds its project in a temp folder under ATTACK_ROOT (default /tmp/astra-attack5), starts
the real `astra-memory mcp` over stdio with the `mcp` SDK's own Client, plays a (hostile) coding
agent, and prints `BROKEN: ...` (exit 1) or `HELD: ...` (exit 0)."""
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
ASTRA = os.environ.get("ASTRA_CLI", os.path.join(REPO, ".venv", "bin", "astra-memory"))
PY = os.environ.get("ASTRA_PYTHON", os.path.join(REPO, ".venv", "bin", "python"))
ROOT = os.environ.get("ATTACK_ROOT", "/tmp/astra-attack5")
ONNX = os.path.join(ROOT, "onnx-cache")
TEST_CMD = "python -m pytest -q -p no:cacheprovider tests"

from mcp import Client, StdioServerParameters  # noqa: E402


class Case:
    def __init__(self, name):
        self.name = name
        os.makedirs(os.path.join(ROOT, "tmp"), exist_ok=True)
        self.dir = tempfile.mkdtemp(prefix=name + "-", dir=os.path.join(ROOT, "tmp"))
        self.home = os.path.join(self.dir, "home")
        self.src = os.path.join(self.dir, "src")  # the --allow root
        os.makedirs(self.home)
        os.makedirs(self.src)

    def project(self, rel, files, git=False):
        root = os.path.join(self.src, rel)
        os.makedirs(root, exist_ok=True)
        for path, text in files.items():
            write(root, path, text)
        if git:
            env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@a", GIT_COMMITTER_NAME="a",
                       GIT_COMMITTER_EMAIL="a@a")
            subprocess.run(["git", "init", "-q", root], check=True, env=env)
            subprocess.run(["git", "-C", root, "add", "-A"], check=True, env=env)
            subprocess.run(["git", "-C", root, "commit", "-q", "-m", "init"], check=True, env=env)
        return root

    def env(self, extra=None):
        e = {
            "PATH": os.path.dirname(PY) + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": os.path.join(self.dir, "userhome"),
            "ASTRA_HOME": self.home,
            "ASTRA_ONNX_CACHE": ONNX,
            "LANG": "C.UTF-8",
        }
        os.makedirs(e["HOME"], exist_ok=True)
        if extra:
            e.update(extra)
        return e

    def params(self, allow=None, extra_env=None):
        allow = [self.src] if allow is None else allow
        args = ["mcp"]
        for a in allow:
            args += ["--allow", a]
        return StdioServerParameters(command=ASTRA, args=args, env=self.env(extra_env), cwd=self.dir)

    def client(self, allow=None, extra_env=None, roots=None):
        kw = {"read_timeout_seconds": 600}
        if roots is not None:
            import mcp.types as t

            async def list_roots(_ctx):
                return t.ListRootsResult(roots=[t.Root(uri="file://" + r) for r in roots])
            kw["list_roots_callback"] = list_roots
        self.errlog = open(os.path.join(self.dir, "server-stderr.log"), "a")
        return Client(self.params(allow, extra_env), **kw)

    def astra(self, args, timeout=170, extra_env=None):
        return subprocess.run([ASTRA] + args, env=self.env(extra_env), capture_output=True, text=True,
                              timeout=timeout, cwd=self.dir)

    def memory_list(self):
        p = self.astra(["memory", "list", "--json", "--all"])
        try:
            return json.loads(p.stdout)
        except Exception:
            return {"raw": p.stdout[-2000:], "err": p.stderr[-2000:], "rc": p.returncode}

    def records(self):
        d = self.memory_list()
        if isinstance(d, dict):
            for k in ("records", "fixes", "items", "memories"):
                if isinstance(d.get(k), list):
                    return d[k]
        return d if isinstance(d, list) else []

    def grep_home(self, needle, skip_copies=True):
        hits = []
        needle = needle.encode() if isinstance(needle, str) else needle
        for dp, dn, fn in os.walk(self.home):
            if skip_copies:
                dn[:] = [x for x in dn if not (x == "pristine" or x.startswith("confirm") or x in ("replay-copy", "snapshot"))]
            for f in fn:
                p = os.path.join(dp, f)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                try:
                    if needle in open(p, "rb").read():
                        hits.append(os.path.relpath(p, self.home))
                except Exception:
                    pass
        return hits


def write(root, path, text, mode=None):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb" if isinstance(text, bytes) else "w") as f:
        f.write(text if isinstance(text, bytes) else textwrap.dedent(text))
    if mode:
        os.chmod(p, mode)


async def call(client, tool, args, timeout=600):
    """Calls a tool; returns (is_error, payload): payload is the structured content, else the
    parsed text, else the raw text. A protocol-level error is returned as (True, {"mcp_error": ...})."""
    t = time.time()
    try:
        r = await client.call_tool(tool, args, read_timeout_seconds=timeout)
    except Exception as e:  # noqa: BLE001 - we report whatever the server answered
        return True, {"mcp_error": f"{type(e).__name__}: {e}"[:3000], "_secs": round(time.time() - t, 1)}
    payload = r.structured_content
    text = "\n".join(getattr(c, "text", "") for c in r.content)
    if payload is None:
        try:
            payload = json.loads(text)
        except Exception:
            payload = {"text": text}
    if isinstance(payload, dict) and set(payload) == {"result"}:
        payload = payload["result"]
    if isinstance(payload, dict):
        payload = dict(payload)
        payload["_secs"] = round(time.time() - t, 1)
    return r.is_error, payload


def short(x, n=600):
    s = json.dumps(x, default=str) if not isinstance(x, str) else x
    return s if len(s) <= n else s[:n] + f"...(+{len(s) - n})"


def verdict(broken, evidence):
    print(("BROKEN: " if broken else "HELD: ") + evidence)
    sys.exit(1 if broken else 0)


def run(main):
    asyncio.run(main())


BUGGY = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n",
}
FIXED_CALC = "def add(a, b):\n    return a + b\n"
