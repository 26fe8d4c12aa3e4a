"""The agent's own words carry secrets: finish_fix's description and cause hold an OpenAI key,
an AWS access key id + secret, a GitHub token, a `password=` and a Slack webhook; the fix itself is
honest. Promise (guarantees.md "Secrets never reach memory, logs or the model"; mcp.md: the agent's
words are data): none of them in memory.sqlite, checkpoints, events or report, nor in search_fixes /
show_fix answers."""
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from mcpharness import *

SECRETS = {
    "openai": "sk-proj-AbCdEf0123456789AbCdEf0123456789AbCdEf01234567",
    "aws id": "AKIAZ7Q3EXAMPLE4T2XY",
    "aws secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
    "github": "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
    "password": "Tr0ub4dor-and-3-horses",
    "slack hook": "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx",
}


async def main():
    c = Case("c12")
    ws = c.project("calc", BUGGY)
    desc = (f"Use + instead of -. I tested it with OPENAI_API_KEY={SECRETS['openai']} and "
            f"aws_access_key_id = {SECRETS['aws id']} aws_secret_access_key = {SECRETS['aws secret']}")
    cause = (f"the function subtracts; our CI token is {SECRETS['github']}, db password={SECRETS['password']}, "
             f"alerts go to {SECRETS['slack hook']}")
    async with c.client() as cl:
        _, b = await call(cl, "begin_fix", {"workspace": ws, "test_command": TEST_CMD})
        write(ws, "calc.py", FIXED_CALC)
        _, f = await call(cl, "finish_fix", {"session": b.get("session"), "description": desc, "cause": cause})
        print("finish:", short(f, 600))
        _, s = await call(cl, "search_fixes", {"failure": "AssertionError assert -1 == 5 where -1 = add(2, 3)"})
        _, sh = await call(cl, "show_fix", {"memory_id": f.get("stored_memory_id") or "x"})
    answers = short(s, 10**7) + short(sh, 10**7)
    where = {}
    for k, v in SECRETS.items():
        hits = c.grep_home(v)
        if v in answers:
            hits.append("tool answers")
        if hits:
            where[k] = hits
    print("secret -> where found:", where)
    print("stored description:", [r.get("fix_description") for r in c.records()])
    verdict(bool(where), f"finish status={f.get('status')} stored={f.get('stored_memory_id')}; secrets found: {where or 'none'}")

run(main)
