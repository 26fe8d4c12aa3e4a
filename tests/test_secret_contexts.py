"""Secrets known by their context (issue 32, class 9): config layouts, command lines, headers, URLs.

Text that only looks like such a context (``docker run -u 1000:1000``, ``PWD=/home/...``) has its
rows in tests/test_secret_forms.py's NOT_SECRETS.

The eleven forms the third outside round carried into memory.sqlite, events.jsonl, report.json and
checkpoints.sqlite each have a row; every row failed on main. detect-secrets runs first
(astra_memory/secret_scanner.py) and no allowlist pragma a hostile file writes is honoured.
"""

from __future__ import annotations

import json

import pytest

from astra_memory.models.untrusted import quoted
from astra_memory.redact import REDACTED, scrub

# Fake credentials, built from parts so that no scanner of this repository mistakes them for real ones.
NETRC_PW = "n3trc" + "-Pw-7781"
ODBC_PW = "Odbc" + "Str0ng!x9"
PGPASS_PW = "pgp" + "ass-S3cret"
API_TOKEN = "9944b09199c62bcf" + "9418ad846dd0e4bbdfc6ee4b"
CURL_PW = "cUrl" + "Pa55word"
MYSQL_PW = "my" + "Sq1Secret"
VAULT = "hvs." + "CAESIJ7n2xQk" + "Zp0aB1cD2eF3gH4iJ5kL6mN"
AGE_KEY = "AGE-SECRET-KEY-1" + "QYQSZQGPZ7QZ8R9XW2YVGF3F4J5K6L7M8N9P0Q2R3S4T5U6V7W8X9Y"
DO_TOKEN = "dop_v1_" + "a3f1" * 16
DOCKER_AUTH = "dXNlcjpk" + "b2NrZXJQYXNzMTIz"  # base64 of user:dockerPass123
SESSION_ID = "8f2k1x9q" + "ZmWp4Lr7Tn"
ELEVEN = [  # (name, text, secret, what must stay readable)
    ("netrc", f"machine api.example.com login ada password {NETRC_PW}", NETRC_PW, "machine api.example.com login ada"),
    ("netrc on lines", f"machine h\n  login u\n  password {NETRC_PW}\n", NETRC_PW, "login u"),
    ("netrc in an assertion", f"E         machine h\nE           login u\nE           password {NETRC_PW}", NETRC_PW, "login u"),
    ("netrc in a nested assertion", f"E         E  machine h\nE         E    login u\nE         E    password {NETRC_PW}",
     NETRC_PW, "login u"),
    ("netrc in a repr", f"E   assert 'machine h\\n  login u\\n  password {NETRC_PW}\\n' == ''", NETRC_PW, "login u"),
    ("netrc in a repr of a repr", f"'machine h\\\\n  login u\\\\n  password {NETRC_PW}\\\\n'", NETRC_PW, "login u"),
    ("odbc", f"Driver={{ODBC Driver 18}};Server=db;Uid=sa;Pwd={ODBC_PW};Encrypt=yes", ODBC_PW, "Encrypt=yes"),
    ("odbc braced", f"Server=db;UID=sa;PWD={{{ODBC_PW};x}};", ODBC_PW, "UID=sa"),
    ("pgpass", f"db.internal:5432:app:deploy:{PGPASS_PW}\n", PGPASS_PW, "db.internal:5432:app:deploy:"),
    ("pgpass in an assertion", f"E         db.internal:5432:app:deploy:{PGPASS_PW}", PGPASS_PW, "E         db.internal"),
    ("pgpass in a nested assertion", f"E       E   db:5432:app:deploy:{PGPASS_PW}", PGPASS_PW, "db:5432:app:deploy:"),
    ("pgpass in a repr", f"E   assert 'x\\ndb:*:app:deploy:{PGPASS_PW}\\n' == ''", PGPASS_PW, "db:*:app:deploy:"),
    ("authorization token", f"Authorization: Token {API_TOKEN}", API_TOKEN, "Authorization: Token "),
    ("authorization in a dict", f"E   headers={{'Authorization': 'Token {API_TOKEN}'}}", API_TOKEN, "Authorization"),
    ("curl -u", f"$ curl -u deploy:{CURL_PW} https://ci.example.com/api", CURL_PW, "curl -u deploy:"),
    ("curl --user", f"curl --user='deploy:{CURL_PW}' -X POST", CURL_PW, "--user="),
    ("mysql -p", f"mysql -h db -u root -p{MYSQL_PW} app < dump.sql", MYSQL_PW, "mysql -h db -u root -p"),
    ("vault", f"VAULT_ADDR=https://vault:8200 vault login {VAULT}", VAULT, "vault login "),
    ("age", f"# created: 2024-01-01\n{AGE_KEY}\n", AGE_KEY, "# created"),
    ("digitalocean", f"doctl auth init -t {DO_TOKEN}", DO_TOKEN, "doctl auth init"),
    ("docker config", '{"auths": {"ghcr.io": {"auth": "%s"}}}' % DOCKER_AUTH, DOCKER_AUTH, '"ghcr.io"'),
    ("docker config escaped", '{"out": "{\\"auths\\": {\\"x\\": {\\"auth\\": \\"%s\\"}}}"}' % DOCKER_AUTH,
     DOCKER_AUTH, "auths"),
    ("docker config escaped twice", '"{\\\\"auth\\\\": \\\\"%s\\\\"}"' % DOCKER_AUTH, DOCKER_AUTH, "auth"),
    ("cookie", f"Cookie: csrftoken=abc123; sessionid={SESSION_ID}", SESSION_ID, "Cookie: "),
    ("set-cookie", f"Set-Cookie: sessionid={SESSION_ID}; Path=/; HttpOnly; SameSite=Lax", SESSION_ID, "Path=/"),
]


@pytest.mark.parametrize(("name", "text", "secret", "kept"), ELEVEN, ids=[row[0] for row in ELEVEN])
def test_each_form_is_redacted_and_its_context_kept(name, text, secret, kept):
    cleaned = scrub(f"line before\n{text}\nline after")
    assert secret not in cleaned and REDACTED in cleaned, cleaned
    assert kept in cleaned, cleaned
    assert cleaned.startswith("line before\n") and cleaned.endswith("\nline after")
    assert scrub(cleaned) == cleaned  # idempotent


@pytest.mark.parametrize(("name", "text", "secret", "kept"), ELEVEN, ids=[row[0] for row in ELEVEN])
def test_quoting_for_the_model_scrubs_the_raw_text_first(name, text, secret, kept):
    """JSON escaping hides the shapes (a .netrc block's newlines, a cookie header's line) from a scrub
    of the finished message: quoted() scrubs before it escapes, strings alone and inside data."""
    raw = f"line before\n{text}\nline after"
    for value in (raw, {"output": raw}, [raw]):
        sent = quoted(value, 10_000)
        assert secret not in sent and secret not in json.loads(sent).__repr__(), sent
        assert REDACTED in sent and json.dumps(kept)[1:-1] in sent, sent


# (20) a project .env read by the model; (14) a model server URL carrying a key.
DB_PASS = "env" + "Pa55-9931"
URL_KEY = "Kq7" + "ZxP2mVn8Lw4Rt"


OUTSIDE = [  # (name, text, secret, what must stay readable)
    ("env", f"DB_PASS={DB_PASS}\nDEBUG=1\n", DB_PASS, "DEBUG=1"),
    ("export", f"export DB_PASS='{DB_PASS}'", DB_PASS, "export DB_PASS="),
    ("yaml", f"db_pass: {DB_PASS}", DB_PASS, "db_pass: "),
    ("bare PASS", f"PASS={DB_PASS}", DB_PASS, "PASS="),
    ("query key", f"--base-url http://host/v1?key={URL_KEY}", URL_KEY, "http://host/v1?key="),
    ("query key later", f"refused: http://host:8000/v1/x?api-version=2&key={URL_KEY}&x=1", URL_KEY, "&x=1"),
    ("user:password", f"--base-url http://user:{URL_KEY}@host/v1", URL_KEY, "@host/v1"),
    ("user:password quoted", f"base_url='https://u:{URL_KEY}@models.example.com/v1?x=1'", URL_KEY, "models.example.com"),
]


@pytest.mark.parametrize(("name", "text", "secret", "kept"), OUTSIDE, ids=[row[0] for row in OUTSIDE])
def test_a_pass_variable_and_a_key_in_a_url_are_redacted(name, text, secret, kept):
    test_each_form_is_redacted_and_its_context_kept(name, text, secret, kept)


def test_an_allowlist_pragma_is_not_honoured():
    from astra_memory.secret_scanner import secret_spans

    secret = "hunter2" + "-Corr3ct-x"
    text = f'password = "{secret}"  # pragma: allowlist secret'
    assert secret_spans(text), "detect-secrets' keyword detector ignores the pragma here"
    assert secret not in scrub(text)
    assert secret not in scrub(f"# pragma: allowlist nextline secret\napi_key = '{secret}'")


def test_detect_secrets_finds_what_it_knows_first():
    """Its keyword detector and shaped plugins give spans; ours may find more, never fewer."""
    from astra_memory.secret_scanner import secret_spans

    text = 'x = 1\nsecret_key = "s3cr3t-Valu3-42"\nslack: xoxb-1234567890-1234567890123-AbCdEfGhIjKl\n'
    found = [text[a:b] for a, b in secret_spans(text)]
    assert "s3cr3t-Valu3-42" in found
    assert any(f.startswith("xoxb-") for f in found)
    github = "ghp_" + "a1B2" * 9
    assert [github] == [f"see {github} here"[a:b] for a, b in secret_spans(f"see {github} here")]
