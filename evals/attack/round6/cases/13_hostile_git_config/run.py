"""Claim (memory.md: "git runs with a timeout, no hooks, pager, fsmonitor, credential helper or
network, no system or global config and a clean environment: a hostile .git/config runs nothing";
the brief: a hostile repository's config and hooks are the normal case for learn). Attack: the
repository's .git/config sets core.fsmonitor, core.hooksPath, core.pager, diff.external, a textconv
driver, a filter driver (smudge/clean/process), gpg.program with log.showSignature, core.sshCommand,
and .git/hooks has every hook; .gitattributes (versioned) routes *.py through the filter and
textconv drivers. `astra-memory learn` and MCP begin_fix run on it. HELD when no trap runs."""
import asyncio, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from learnharness import *

c = Case("c13")
marks = os.path.join(c.dir, "marks")
os.makedirs(marks)
r = base_repo(c)
r.commit("attributes", {".gitattributes": "*.py filter=evil diff=evil\n"})
fix = r.commit("Fix add", {"calc.py": CALC_FIXED, "tests/test_add.py": ADD_TEST})
write(r.root, "calc.py", CALC_BUGGY)  # the bug back in the working tree (uncommitted) for begin_fix
traps = os.path.join(c.dir, "traps")
os.makedirs(os.path.join(traps, "hooks"))


def trap(name, tail="cat"):
    path = os.path.join(traps, name + ".sh")
    write(traps, name + ".sh", f"#!/bin/sh\ntouch {marks}/{name}\n{tail}\n", mode=0o755)
    return path

for h in ["pre-commit", "post-checkout", "post-merge", "post-rewrite", "reference-transaction", "post-index-change",
          "pre-auto-gc", "fsmonitor-watchman", "pre-push", "post-commit", "sendemail-validate", "push-to-checkout"]:
    for d in (os.path.join(traps, "hooks"), os.path.join(r.root, ".git", "hooks")):
        write(d, h, f"#!/bin/sh\ntouch {marks}/hook-{h}\n", mode=0o755)
cfg = {
    "core.fsmonitor": trap("fsmonitor", "exit 0"),
    "core.hooksPath": os.path.join(traps, "hooks"),
    "core.pager": trap("pager"),
    "core.sshCommand": trap("ssh", "exit 1"),
    "core.askPass": trap("askpass", "exit 1"),
    "diff.external": trap("external", "exit 0"),
    "diff.evil.textconv": trap("textconv", 'cat "$1"'),
    "diff.evil.command": trap("diffcommand", "exit 0"),
    "filter.evil.smudge": trap("smudge"),
    "filter.evil.clean": trap("clean"),
    "gpg.program": trap("gpg", "exit 1"),
    "log.showSignature": "true",
    "credential.helper": "!" + trap("credential", "exit 0"),
    "core.editor": trap("editor", "exit 0"),
    "sequence.editor": trap("seqeditor", "exit 0"),
    "uploadpack.packObjectsHook": trap("packobjects", "exit 1"),
    "include.path": os.path.join(traps, "included.cfg"),
}
write(traps, "included.cfg", f"[alias]\n\tlog = !touch {marks}/alias-log\n")
for k, v in cfg.items():
    r.git("config", k, v)
p, data = c.learn(r.root)
print("learn rc", p.returncode, p.stderr[-800:])
print("row", short(row_for(data, fix), 500))
fired_learn = sorted(os.listdir(marks))
print("fired during learn:", fired_learn)
for m in fired_learn:
    os.unlink(os.path.join(marks, m))


async def begin():
    from mcp import Client, StdioServerParameters
    params = StdioServerParameters(command=ASTRA, args=["mcp", "--allow", c.src], env=c.env(), cwd=c.dir)
    async with Client(params, read_timeout_seconds=300) as cl:
        res = await cl.call_tool("begin_fix", {"workspace": r.root, "test_command": TEST_CMD})
        return "\n".join(getattr(x, "text", "") for x in res.content)

b = asyncio.run(begin())
print("begin_fix", b[:600])
fired_mcp = sorted(os.listdir(marks))
verdict(bool(fired_learn or fired_mcp), f"traps fired: during learn {fired_learn}; during MCP begin_fix {fired_mcp}; learn verdict={result_of(row_for(data, fix))}")
