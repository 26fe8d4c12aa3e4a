"""Secrets: one scrub function, a row per key format, and every stored and logged field scrubbed."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from astra_memory.events import read_events
from astra_memory.redact import REDACTED, scrub, scrub_data, scrub_table
from astra_memory.session.run import start_session
from astra_memory.stores.record import SCRUBBED_DIFF
from tests.helpers import ALPHA_DIAGNOSIS, ALPHA_FIX, call, task_with_script

# Fake credentials in each provider's published shape, built from parts so that no scanner of this
# repository mistakes them for real ones. (name, secret, the text it appears in)
A32 = "Ab1" * 11  # 33 alphanumerics
KEYS = [
    ("openai", "sk-" + A32, "OPENAI_API_KEY is {}"),
    ("openai project", "sk-proj-" + A32 + "_-x", "key {} here"),
    ("anthropic", "sk-ant-api03-" + A32, "x-api-key: {}"),
    ("stripe live", "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc", "charge with {} today"),
    ("stripe restricted", "rk_" + "test_" + "51HxYzAbCdEfGhIjKlMn", "use {} for refunds"),
    ("github classic", "ghp_" + "a1B2" * 9, "git clone https://{}@github.com/o/r"),
    ("github fine-grained", "github_pat_" + "11ABCDEFG0" * 4, "token {}"),
    ("gitlab", "glpat-" + "xY9" * 7, "GITLAB {}"),
    ("hugging face", "hf_" + "aBcDeFgHiJ" * 3 + "kL", "HF_TOKEN {}"),
    ("slack bot", "xoxb-" + "1234567890-1234567890123-" + "AbCdEf" * 4, "slack {}"),
    ("slack user", "xoxp-" + "1234567890-9876543210-" + "aa11" * 5, "{}"),
    ("slack webhook", "https://hooks.slack.com/services/T0000AAAA/B0000BBBB/" + "x1Y2" * 6, "post to {}"),
    ("google api key", "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "maps key={} ok"),
    ("aws key id", "AKIA" + "IOSFODNN7EXAMPL2", "aws_access_key_id {}"),
    ("npm", "npm_" + "a1B2c3D4e5" * 3 + "F6g7H8", "//registry:_authToken {}"),
    ("pypi", "pypi-" + "AgEIcHlwaS5vcmc" + "Cd" * 20, "password {}"),
    ("sendgrid", "SG." + "abcDEF123_" * 2 + "." + "ghiJKL456-" * 3, "{}"),
    ("jwt", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
     "Authorization header carried {} once"),
    ("bearer", "Bearer abcDEF123456.xyz", "curl -H 'Authorization: {}'"),
    ("basic auth header", "dXNlcjpodW50ZXIy", "Authorization: Basic {}"),
    ("postgres url password", "s3cr3t-Passw0rd", "postgresql://admin:{}@db.internal:5432/app"),
    ("redis url, no user", "hunter2hunter2", "redis://:{}@cache:6379/0"),
    ("bare user:pass@host", "Tr0ub4dor&3", "connect to deploy:{}@build.example.com then"),
    ("assigned password", "correct-horse-battery", 'password = "{}"'),
    ("assigned api key", "abc123def456ghi789", "API_KEY={}"),
]
PEM = ("-----BEGIN " + "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefABCDEF\nqwertyuiopASDFGHJKL+/=\n"
       "-----END " + "RSA PRIVATE KEY-----")


@pytest.mark.parametrize(("name", "secret", "context"), KEYS, ids=[k[0] for k in KEYS])
def test_each_key_format_is_scrubbed(name, secret, context):
    text = context.format(secret)
    cleaned = scrub(text)
    assert secret not in cleaned and REDACTED in cleaned, (name, cleaned)
    assert scrub(cleaned) == cleaned  # idempotent


# the formats known by their shape alone, not by the words around them
SHAPED_KEYS = [k for k in KEYS if k[0] not in {"basic auth header", "postgres url password", "redis url, no user",
                                                "bare user:pass@host", "assigned password", "assigned api key",
                                                "slack webhook"}]  # a URL: no start to anchor


@pytest.mark.parametrize(("name", "secret"), [k[:2] for k in SHAPED_KEYS], ids=[k[0] for k in SHAPED_KEYS])
def test_each_key_format_after_an_escaped_newline_is_scrubbed(name, secret):
    """A repr or JSON string shows a line break as ``\\n``: the key after it starts a line, for the
    table too (scrub_table, without detect-secrets before it: each pass knows its own shapes)."""
    text = "E       AssertionError: assert 'x\\n" + secret + "\\n' == ''"
    for cleaned in (scrub(text), scrub_table(text)):
        assert secret not in cleaned and REDACTED in cleaned, (name, cleaned)
        assert scrub(cleaned) == cleaned


def test_pem_private_keys_whole_block_and_cut_off():
    cleaned = scrub(f"key:\n{PEM}\nafter the key.")
    assert "MIIEowIBAAKCAQEA" not in cleaned and "qwertyuiop" not in cleaned
    assert cleaned.startswith("key:\n") and cleaned.endswith("\nafter the key.")
    cut = scrub(PEM.split("-----END")[0])  # an error message showing only the start of a key
    assert "MIIEowIBAAKCAQEA" not in cut
    in_json = scrub(json.dumps({"output": PEM}))  # a JSON line escapes the newlines
    assert "MIIEowIBAAKCAQEA" not in in_json
    assert "BEGIN PUBLIC KEY" in scrub("-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----")


@pytest.mark.parametrize("text", [
    "def parse(token: str) -> list[str]:",  # a plain identifier is not a secret
    "return [origin.strip() for origin in raw.split(',') if origin.strip()]",
    "pytest passed with exit code 0 (4 passed)",
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "memory 4b0c1d8e-6f1a-5c3e-9a57-a57a0c0de0e1",
    "git@github.com:owner/repo.git",
    "see https://example.com:8080/path and skip_this_step",
    "basic functionality works; sketch-notes and hf_hub usage",
    "app/settings.py:10: assert parse_allowed_origins('a, b') == ['a', 'b']",
])
def test_ordinary_text_is_left_alone(text):
    assert scrub(text) == text


def test_scrub_data_reaches_every_string_and_keeps_the_shape():
    secret = "sk-" + A32
    data = {"a": [secret, 1, None, {"b": (secret, 2.5)}], secret: True}
    cleaned = scrub_data(data)
    assert secret not in json.dumps(cleaned)
    assert cleaned["a"][1:3] == [1, None] and isinstance(cleaned["a"][3]["b"], tuple)


def test_scrubbing_a_large_log_is_linear():
    """Not a timing target (those are in the benchmarks): a guard against catastrophic backtracking."""
    hostile = ("a" * 5000 + ":" + "b" * 5000 + "@") * 20 + "x://" * 20000 + "-----BEGIN PRIVATE KEY-----" * 200
    started = time.perf_counter()
    scrub(hostile)
    assert time.perf_counter() - started < 5


def test_every_string_field_of_a_memory_record_is_scrubbed(agent):
    secret = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
    outcome = f"pytest passed with exit code 0 {secret}"
    record = agent.memory.store_fix_memory(
        fix_description=f"fix {secret}", error_type=f"KeyError {secret}", file_paths=[f"app/{secret}.py"],
        outcome=outcome, confirmed_outcome=outcome, symptom=f"symptom {secret}", diff=f"+key = {secret!r}\n",
        session_id=f"s-{secret}", thread_id=f"t-{secret}", project=f"p-{secret}", project_id=f"git:{secret}",
        model=f"openai:{secret}")
    stored = agent.memory.get(record.memory_id).model_dump(mode="json")
    unset = ("memory_id", "timestamp", "updated_at", "status", "status_reason", "superseded_by")  # not given here
    strings = {k: v for k, v in stored.items() if isinstance(v, (str, list)) and k not in unset}
    # A diff that held a secret is kept to read and never applied again (stores/record.py).
    assert stored.pop("not_replayable") == SCRUBBED_DIFF and strings.pop("not_replayable")
    assert len(strings) == 12  # every free-text field of the record, paths and confirmations included
    for field, value in strings.items():
        assert secret not in json.dumps(value) and REDACTED in json.dumps(value), field
    assert secret not in json.dumps(agent.memory.search_codebase_memory("symptom", min_score=-1)[0].to_dict())


def test_every_stored_field_and_the_logs_of_a_session_are_scrubbed(agent, settings):
    """Secrets in the project, the prompt, a file name and the session id never reach the memory
    record, the event log, report.json or the conversation the model is sent."""
    stripe, hf, google = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc", "hf_" + "aBcDeFgHiJ" * 3 + "kL", "AIza" + "S" * 35
    thread = "sk-" + A32  # a session id that looks like a key
    read = call("read_file", path="app/settings.py")
    listing = call("list_files", path=".")
    fix = {**ALPHA_FIX, "args": {**ALPHA_FIX["args"],
                                 "new_text": ALPHA_FIX["args"]["new_text"] + f"  # was {stripe}"}}
    finish = call("finish", fix_description=f"Strip whitespace; the old key {hf} is rotated.",
                  error_type="AssertionError")
    task = task_with_script(settings, thread, [read, listing, ALPHA_DIAGNOSIS, fix, finish])
    workspace = Path(task["workspace"])
    settings_py = workspace / "app" / "settings.py"
    settings_py.write_text(settings_py.read_text() + f'\nDEPLOY_URL = "https://ci:{google}@deploy.example.com"\n')
    (workspace / f"notes-{hf}.txt").write_text("a file whose name holds a token\n")
    task["prompt"] += f" The staging key is {stripe}."
    final = start_session(agent, task)
    assert final["status"] == "fixed"
    secrets = (stripe, hf, google, thread)

    record = agent.memory.get(final["stored_memory_id"]).model_dump(mode="json")
    for field, value in record.items():
        for secret in secrets:
            assert secret not in json.dumps(value), (field, secret)
    assert REDACTED in record["diff"] and REDACTED in record["fix_description"]
    assert record["session_id"] == record["thread_id"] == REDACTED

    run_dir = Path(task["run_dir"])
    for name in ("events.jsonl", "report.json"):
        text = (run_dir / name).read_text()
        for secret in secrets:
            assert secret not in text, (name, secret)
    assert read_events(run_dir)  # still valid JSON lines
    # what the model was sent (the checkpointed conversation), and the rest of the checkpoint
    sent = json.dumps([m.content for m in final["messages"]])
    assert f"notes-{REDACTED}.txt" in sent  # a file name reaching the prompt
    for secret in (stripe, hf, google):
        assert secret not in sent, secret
        assert secret not in json.dumps([r["output"] for r in final["test_runs"]] + [final["failure"],
                                         final["task"]["prompt"], final["edits"]], default=str)


def test_remembered_results_are_the_worked_out_ones_and_the_memo_is_bounded():
    from astra_memory.redact import MEMO_MAX_CHARS, MEMO_TEXTS, _remembered, scrub_once

    texts = ["api_key = 'sk-proj-" + "a1B2" * 12 + "'", "nothing secret here", "password: hunter2hunter2"]
    assert [scrub(t) for t in texts] == [scrub(t) for t in texts] == [scrub_once(t) for t in texts]
    assert scrub(texts[0]) != texts[0]
    held = _remembered.cache_info().currsize
    long_text = "x" * MEMO_MAX_CHARS + " token=ghp_" + "A1b2C3d4" * 5
    assert scrub(long_text) == scrub_once(long_text) != long_text
    assert _remembered.cache_info().currsize == held  # a longer text is worked out each time, not held
    assert _remembered.cache_info().maxsize == MEMO_TEXTS
