"""Secrets in a failing test's output, in forms not listed in the docs, each with a key or a fixed
shape beside it. After a session that stores a fix, no secret value may be in any file under ASTRA_HOME
(memory.sqlite, checkpoints.sqlite + WAL, events.jsonl, report.json, transcript.jsonl) nor in what the
model was sent. Promise: "Secrets never reach memory, logs or the model"."""
import os, sys, json
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from harness import *

SECRETS = {
    "sentry_dsn": ("https://a3f9c1e27b6d4e8f9a0b1c2d3e4f5a6b@o123456.ingest.sentry.io/7890123", "a3f9c1e27b6d4e8f9a0b1c2d3e4f5a6b"),
    "redis_empty_user": ("redis://:S3cr3tRedisPw9xQ@cache.internal:6379/0", "S3cr3tRedisPw9xQ"),
    "x_api_key_header": ("X-Api-Key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    "google_oauth": ("ya29.a0AfH6SMBx3kLmNoPqRsTuVwXyZ0123456789abcdefGhIjKl", "a0AfH6SMBx3kLmNoPqRsTuVwXyZ0123456789"),
    "access_token_json": ('{"access_token": "Zq8Jd02kLmZx7Yt3Wv9RbNc4"}', "Zq8Jd02kLmZx7Yt3Wv9RbNc4"),
    "passphrase": ("passphrase: correct-horse-battery-staple-77", "correct-horse-battery-staple-77"),
    "sshpass": ("sshpass -p 'Hunter2Pass99word' ssh deploy@host", "Hunter2Pass99word"),
    "cli_token_flag": ("--token 4f9c2a8e7b1d6f3a0c5e9b2d7a1f4c8e", "4f9c2a8e7b1d6f3a0c5e9b2d7a1f4c8e"),
    "discord_webhook": ("https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrSt", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEf"),
    "telegram_bot": ("bot token 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"),
    "cf_api_token_env": ("CF_API_TOKEN=Yx7pQ2mN9kL4vB8cR1tZ6wS3dF0gH5jK2aE7uI9o", "Yx7pQ2mN9kL4vB8cR1tZ6wS3dF0gH5jK2aE7uI9o"),
}
c = Case("c09")
lines = "\\n".join(v[0].replace("'", "\\'") for v in SECRETS.values())
test = ("from calc import add\n\n\nCONFIG = '" + lines + "'\n\n\n"
        "def test_add():\n    assert add(2, 3) == 5, CONFIG\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n")
ws = c.project("proj", {"calc.py": BUGGY_CALC["calc.py"], "tests/test_calc.py": test})
url, logp = c.server([diag(["calc.py"]), edit("calc.py", "a - b", "a + b"), finish()])
d = parse_json(c.run_live(ws, url))
print(json.dumps(summary(d, ("status", "stored_memory_id")), indent=1))
sent = open(logp).read()
leaks = []
for name, (form, needle) in SECRETS.items():
    where = c.grep_home(needle)
    if needle in sent:
        where.append("<sent to model>")
    print(f"{name:24s} {'LEAKED in ' + ', '.join(where) if where else 'scrubbed'}")
    if where:
        leaks.append(f"{name} -> {where[:4]}")
verdict(bool(leaks) and bool(d.get("stored_memory_id") or True), f"{len(leaks)} of {len(SECRETS)} forms reached ASTRA_HOME/model: " + "; ".join(leaks))
