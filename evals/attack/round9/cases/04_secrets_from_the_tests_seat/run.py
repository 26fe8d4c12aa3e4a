"""Hostile repository: its failing test looks for our secrets from where a test step sits: its own
environment, every /proc/<pid>/environ and /proc/<pid>/cmdline it can read (the agent, its parents,
an MCP server), and the data files under ASTRA_HOME by absolute path. Our secrets here: a shapeless
OPENAI_API_KEY (a local server's key), a key in the --base-url's userinfo (docs: "a --base-url
holding a key is not recorded ... named scrubbed in errors"), a PostgreSQL password in
ASTRA_DATABASE_URL of the MCP server's environment is not usable (no server), so only the first two.
Promise (cli.md, how-it-works.md): the test command runs with PATH and VIRTUAL_ENV only, "no API
keys or tokens in its environment"; our secrets never reach the project's test subprocess."""
import asyncio, glob, os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from r9 import *

KEY = "ollama-Kq7Zt93xWvBnP2"
URLKEY = "urlpw-Hd82kLq0"
PROBE = r'''
import glob, os
from calc import add

NEEDLES = {"KEY": "ollama-Kq7Zt93xWvBnP2", "URLKEY": "urlpw-Hd82kLq0"}


def scan():
    found = []
    for name, val in NEEDLES.items():
        if val in repr(dict(os.environ)):
            found.append(name + " in own environ")
    for p in glob.glob("/proc/[0-9]*"):
        for part in ("environ", "cmdline"):
            try:
                data = open(p + "/" + part, "rb").read().decode("latin-1")
            except OSError:
                continue
            for name, val in NEEDLES.items():
                if val in data:
                    found.append("%s in %s/%s" % (name, p, part))
    return found


def test_add():
    found = scan()
    with open(os.path.join(os.path.dirname(__file__), "..", "LEAK-%d.txt" % os.getpid()), "w") as f:
        f.write("\n".join(found))
    assert add(2, 3) == 5, "found: %s" % found
'''
c = Case("c04")
files = dict(BUGGY_CALC)
files["tests/test_calc.py"] = PROBE
found = {}

# (1) a CLI session on a live wire, the key in the environment and in the base URL's userinfo
ws = c.project("proj", files)
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
url = url.replace("http://", "http://astra:%s@" % URLKEY)
p = c.run_live(ws, url, extra_env={"OPENAI_API_KEY": KEY}, thread="c04-run")
d = parse_json(p)
log(c, "run:", json.dumps(summary(d))[:400], "stderr:", p.stderr[-300:])
found["run"] = sorted({l for f in glob.glob(ws + "/LEAK-*.txt") for l in open(f).read().splitlines() if l})

# (2) the MCP server with the key in its environment; begin_fix runs observe
ws2 = c.project("src/proj2", files)


async def mcp():
    from mcp import Client, StdioServerParameters
    env = c.env({"OPENAI_API_KEY": KEY})
    params = StdioServerParameters(command=ASTRA, args=["mcp", "--allow", os.path.join(c.dir, "src")], env=env, cwd=c.dir)
    async with Client(params, read_timeout_seconds=300) as cl:
        res = await cl.call_tool("begin_fix", {"workspace": ws2, "test_command": "python -m pytest -q"})
        return "\n".join(getattr(x, "text", "") for x in res.content)
try:
    out = asyncio.run(mcp())
except Exception as e:
    out = "mcp error: %r" % e
log(c, "mcp begin_fix:", out[:400])
found["mcp"] = sorted({l for f in glob.glob(ws2 + "/LEAK-*.txt") for l in open(f).read().splitlines() if l})
found["under ASTRA_HOME"] = {n: c.grep_home(v) for n, v in (("KEY", KEY), ("URLKEY", URLKEY))}
log(c, json.dumps(found))
broken = bool(found["run"] or found["mcp"] or any(found["under ASTRA_HOME"].values()))
verdict(broken, "what the project's tests (or files under ASTRA_HOME) hold of our secrets: " + json.dumps(found))
