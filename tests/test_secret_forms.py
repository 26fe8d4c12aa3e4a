"""Secrets with no shape of their own, in every form test output gives them (issue 21, part 5).

A row per secret times a row per form: plain text, an assignment, a Python dict repr, JSON (and JSON
inside a JSON string), a pytest assertion and its diff line, an environment line, a keyword argument.
Each must come out redacted; text that only names a secret (``password_length = 12``) stays readable.
A whole session whose failing test prints them shows none of them to the memory, the checkpoints,
the events or the report.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from astra_memory.redact import REDACTED, scrub, scrub_data
from astra_memory.session.run import start_session, workspace_task
from tests.helpers import call, write_project
from tests.test_protected_paths import diagnosed

# Fake credentials, built from parts so that no scanner of this repository mistakes them for real ones.
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"  # AWS's documented example shape: 40 base64
AZURE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsu" + "Fq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="  # 88
SECRETS = [  # (name, key, secret)
    ("aws secret access key", "aws_secret_access_key", AWS_SECRET),
    ("password", "password", "hunter2-Corr3ct"),
    ("password without digits", "password", "correcthorsebatterystaple"),
    ("client secret", "client_secret", "8Q~" + "xY7abc.DEF_ghiJKL-mno9pq"),
    ("client secret without digits", "client_secret", "qwertyuiopasdfghjkl"),
    ("azure account key", "AccountKey", AZURE_KEY),
    ("api key without digits", "api_key", "quicksilverfoxtrotter"),
    ("auth token", "auth_token", "t0k" + "en-4f9a-Zz"),
]
FORMS = [  # (name, how the key and the secret appear)
    ("plain text", lambda k, s: f"{k}: {s}"),
    ("assignment", lambda k, s: f"{k} = {s}"),
    ("quoted assignment", lambda k, s: f'{k} = "{s}"'),
    ("dict repr", lambda k, s: repr({k: s, "user": "ada"})),
    ("json", lambda k, s: json.dumps({"user": "ada", k: s})),
    ("json in a json string", lambda k, s: json.dumps({"output": json.dumps({k: s})})),
    ("pytest assertion", lambda k, s: f"E       AssertionError: assert {{{k!r}: {s!r}}} == {{{k!r}: 'other'}}"),
    ("pytest diff line", lambda k, s: f"E         -     {k!r}: {s!r},"),
    ("env line", lambda k, s: f"{k.upper()}={s}"),
    ("keyword argument", lambda k, s: f"E       where False = connect(host='db', {k}={s!r})"),
    ("subscript comparison", lambda k, s: f'>       assert settings["{k}"] == "{s}"'),
]


@pytest.mark.parametrize(("secret_name", "key", "secret"), SECRETS, ids=[s[0] for s in SECRETS])
@pytest.mark.parametrize(("form_name", "form"), FORMS, ids=[f[0] for f in FORMS])
def test_each_secret_in_each_form_is_redacted(secret_name, key, secret, form_name, form):
    text = f"line before\n{form(key, secret)}\nline after"
    cleaned = scrub(text)
    assert secret not in cleaned and REDACTED in cleaned, cleaned
    assert key in cleaned or key.upper() in cleaned  # whose secret it was stays readable
    assert cleaned.startswith("line before\n") and cleaned.endswith("\nline after")
    assert scrub(cleaned) == cleaned  # idempotent


@pytest.mark.parametrize(("secret_name", "key", "secret"), SECRETS, ids=[s[0] for s in SECRETS])
def test_each_secret_as_data_is_redacted(secret_name, key, secret):
    """A dict whose key names a secret (a test's environment, an event's field): the value goes whole."""
    cleaned = scrub_data({"env": {key: secret, "HOME": "/root"}, "runs": [{key.upper(): secret}]})
    assert secret not in json.dumps(cleaned)
    assert cleaned["env"] == {key: REDACTED, "HOME": "/root"} and cleaned["runs"] == [{key.upper(): REDACTED}]


@pytest.mark.parametrize("text", [
    f"DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey={AZURE_KEY};EndpointSuffix=core.windows.net",
    f"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey={AZURE_KEY[:44]}",
    f"E       assert 'DefaultEndpointsProtocol=https;AccountKey={AZURE_KEY}' == ''",
    f"AWS secret access key {AWS_SECRET} (rotate it)",
    f"[default]\naws_access_key_id = AKIA{'IOSFODNN7EXAMPL2'}\naws_secret_access_key={AWS_SECRET}\n",
], ids=["azure storage", "azure service bus", "azure in an assertion", "aws in prose", "aws credentials file"])
def test_connection_strings_and_provider_shapes(text):
    cleaned = scrub(text)
    assert AZURE_KEY[:40] not in cleaned and AWS_SECRET not in cleaned and "IOSFODNN7EXAMPL2" not in cleaned
    assert REDACTED in cleaned
    if "AccountName" in text:
        assert "AccountName=acct1;" in cleaned and "EndpointSuffix=core.windows.net" in cleaned


NOT_SECRETS = [
    "password_length = 12",
    '"token_count": 3',
    "passwordLength: 16",
    "max_tokens=4096",
    '{"input_tokens": 150000, "output_tokens": 2048}',
    'token_type: "bearer"',
    'secret_name = "prod-db"',
    "api_key_env = OPENAI_API_KEY_VARIABLE",
    "def login(username, password=password):",
    "    return authenticate(user, password=new_password, token=self.token)",
    "token = make_token(user)",
    "api_key = settings.API_KEY",
    'SECRET_KEY = os.environ["SECRET_KEY"]',
    "def check(password: str, token: Optional[str] = None) -> bool:",
    "E   ValueError: invalid token: expected 3 parts, got 2",
    "{'password': ['This field is required.']}",
    '"password": ""',
    "secret_key: ${SECRET_KEY}",
    "FAILED tests/test_tokens.py::TestToken::test_refresh - assert 1 == 2",
    "tests/test_password.py::test_reset_token[expired] FAILED",
    "aws s3 cp build.zip s3://bucket/key/build.zip",
    "commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b secret rotation docs",
    "AccountName=devstoreaccount1;",
    # forms that only look like a secret's context (tests/test_secret_contexts.py)
    "docker run -u 1000:1000 image",
    "sort -u names.txt",
    "PWD=/home/ada/project",
    "mysql -h db -u root -p app",
    "pip install -p 3",
    "tests/test_x.py:12: in test_login",
    "app.py:10:5: E501 line too long",
    "Set-Cookie: Path=/; HttpOnly",
    "bypass = True",
    "compass_heading = 270",
    "pass_count = 3",
    "    pass",
    "See https://example.com/search?q=python&page=2",
    "machine learning password reset flow",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_text_that_only_names_a_secret_stays_readable(text):
    assert scrub(text) == text


def test_data_that_only_names_a_secret_stays_readable():
    data = {"password_length": "12", "token_type": "bearer", "max_tokens": 4096, "secret_name": "prod",
            "tokens": ["a", "b"], "password": ""}
    assert scrub_data(data) == data


# -- a whole session: the failing test's output carries the secrets --------------------------------
CONFIG_PY = '''def load():
    return {
        "password": "correcthorsebatterystaple",
        "client_secret": "qwertyuiopasdfghjkl",
        "aws_secret_access_key": "%s",
        "storage": "DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey=%s;EndpointSuffix=core.windows.net",
        "retries": "3",
    }
''' % (AWS_SECRET, AZURE_KEY)
TEST_PY = '''from app.config import load


def test_retries_are_a_number():
    assert load() == {**load(), "retries": 3}
'''
SESSION_SECRETS = ("correcthorsebatterystaple", "qwertyuiopasdfghjkl", AWS_SECRET, AZURE_KEY[:40])


def test_secrets_in_failing_test_output_reach_no_stored_or_logged_text(agent, settings, tmp_path):
    project = write_project(tmp_path / "proj", {"app/__init__.py": "", "app/config.py": CONFIG_PY,
                                                "tests/test_config.py": TEST_PY})
    task = workspace_task(project, "python -m pytest -vv -p no:cacheprovider tests", settings, "secret-forms")  # -vv: dicts whole
    task.update(approve_edits=False, script=diagnosed(
        call("read_file", path="app/config.py"),
        call("apply_edit", path="app/config.py", old_text='"retries": "3"', new_text='"retries": 3'),
        call("finish", fix_description="retries is an int, not a string.", error_type="AssertionError"),
        cause="load() gives retries as the string '3', not the number 3.", files=("app/config.py",)))
    final = start_session(agent, task)
    assert final["status"] == "fixed", final.get("reason")
    assert "client_secret" in final["test_runs"][0]["output"]  # the secrets were in the output, by name

    record = json.dumps(agent.memory.get(final["stored_memory_id"]).model_dump(mode="json"))
    run_dir = Path(task["run_dir"])
    logs = {name: (run_dir / name).read_text() for name in ("events.jsonl", "report.json")}
    state = json.dumps({k: v for k, v in final.items() if k != "messages"}, default=str)
    sent = json.dumps([m.content for m in final["messages"]])
    checkpoints = b"".join(p.read_bytes() for p in settings.checkpoint_path.parent.glob(
        settings.checkpoint_path.name + "*"))  # the SQLite file and its WAL
    for secret in SESSION_SECRETS:
        for where, text in [("memory", record), ("state", state), ("model", sent), *logs.items()]:
            assert secret not in text, (where, secret)
        assert secret.encode() not in checkpoints, ("checkpoints", secret)
    with sqlite3.connect(settings.checkpoint_path) as db:  # and the checkpoints are still readable
        assert db.execute("select count(*) from checkpoints").fetchone()[0] > 0


# -- secrets known by their shape, not a key (the fourth outside round, case 09) --------------------
# A URL's userinfo, a secret-taking option of a command line, Google OAuth tokens, a webhook's token
# path. Each in every form test output gives it; whose secret it was (the host, the tool, the
# webhook's id) stays readable. Fake values, built from parts.
HEX32 = "a3f9c1e27b6d4e8f" + "9a0b1c2d3e4f5a6b"
TOKEN_HEX = "4f9c2a8e7b1d6f3a" + "0c5e9b2d7a1f4c8e"
YA29 = "ya29." + "a0AfH6SMBx3kLmNoPqRsTuVwXyZ" + "0123456789abcdefGhIjKl"
REFRESH = "1//0g" + "LmNoPqRsTuVwXyZ0123456789" + "abcdefGhIjKlMn"
GOCSPX = "GOCSPX-" + "Ab1Cd2Ef3Gh4" + "Ij5Kl6Mn7Op8Qr9S"
PASSWORD = "Hunter2" + "Pass99word"
HOOK = "AbCdEfGhIjKlMnOpQrStUvWxYz" + "0123456789_-AbCdEfGhIjKlMnOpQrSt"
SHAPED = [  # (name, text, secret, what must stay readable)
    ("sentry dsn", f"https://{HEX32}@o123456.ingest.sentry.io/7890123", HEX32, "@o123456.ingest.sentry.io/7890123"),
    ("token as a url's user", f"git clone https://{TOKEN_HEX}@git.example.com/org/repo.git", TOKEN_HEX,
     "@git.example.com/org/repo.git"),
    ("google oauth access token", f"creds.token = {YA29}", YA29[5:], "creds.token"),
    ("google oauth token on its own", YA29, YA29[5:], ""),
    ("google oauth refresh token", f"refresh: {REFRESH} (stored)", REFRESH[4:], "(stored)"),
    ("google oauth client secret", f"client {GOCSPX} for app", GOCSPX[7:], "for app"),
    ("sshpass -p", f"sshpass -p '{PASSWORD}' ssh deploy@host", PASSWORD, "ssh deploy@host"),
    ("sshpass -p glued", f"sshpass -p{PASSWORD} scp a host:", PASSWORD, "scp a host:"),
    ("docker login -p", f"docker login -u ada -p {PASSWORD} ghcr.io", PASSWORD, "ghcr.io"),
    ("redis-cli -a", f"redis-cli -h cache -p 6379 -a {PASSWORD} ping", PASSWORD, "-p 6379"),
    ("ldapsearch -w", f"ldapsearch -x -D cn=admin -w {PASSWORD} -b dc=x", PASSWORD, "-b dc=x"),
    ("keytool -storepass", f"keytool -list -keystore k.jks -storepass {PASSWORD}", PASSWORD, "-keystore k.jks"),
    ("--token", f"deploy --token {TOKEN_HEX} --env prod", TOKEN_HEX, "--env prod"),
    ("--token on its own", f"--token {TOKEN_HEX}", TOKEN_HEX, "--token "),
    ("--api-key quoted", f"cli --api-key \"{PASSWORD}\" run", PASSWORD, "--api-key"),
    ("--db-password", f"migrate --db-password {PASSWORD}", PASSWORD, "migrate --db-password"),
    ("--token in an argv list", f"main(['deploy', '--token', '{TOKEN_HEX}'])", TOKEN_HEX, "deploy"),
    ("discord webhook", f"https://discord.com/api/webhooks/123456789012345678/{HOOK}", HOOK[:40],
     "discord.com/api/webhooks/123456789012345678/"),
    ("discordapp webhook", f"post https://discordapp.com/api/webhooks/1234567/{HOOK} ok", HOOK[:40], " ok"),
    ("slack workflow webhook", f"https://hooks.slack.com/workflows/T0AAAA/A0BBBB/{TOKEN_HEX}", TOKEN_HEX,
     "hooks.slack.com"),
    ("teams webhook", f"https://acme.webhook.office.com/webhookb2/{TOKEN_HEX}@x/IncomingWebhook/{HEX32}/y",
     HEX32, "acme.webhook.office.com"),
]
SHAPED_FORMS = [  # (name, how the text appears)
    ("plain text", lambda t: t),
    ("dict repr", lambda t: repr({"value": t, "user": "ada"})),
    ("json", lambda t: json.dumps({"user": "ada", "value": t})),
    ("json in a json string", lambda t: json.dumps({"output": json.dumps({"value": t})})),
    ("pytest assertion", lambda t: f"E       AssertionError: assert {t!r} == ''"),
    ("after an escaped newline", lambda t: "E       AssertionError: assert 'x\\n" + t.replace("'", "\\'") + "\\n' == ''"),
    ("env line", lambda t: f"CONFIG_VALUE={t}"),
]


@pytest.mark.parametrize(("secret_name", "text", "secret", "kept"), SHAPED, ids=[s[0] for s in SHAPED])
@pytest.mark.parametrize(("form_name", "form"), SHAPED_FORMS, ids=[f[0] for f in SHAPED_FORMS])
def test_each_shaped_secret_in_each_form_is_redacted(secret_name, text, secret, kept, form_name, form):
    cleaned = scrub(f"line before\n{form(text)}\nline after")
    assert secret not in cleaned and REDACTED in cleaned, cleaned
    assert kept in cleaned or json.dumps(kept)[1:-1] in cleaned or repr(kept)[1:-1] in cleaned, cleaned
    assert cleaned.startswith("line before\n") and cleaned.endswith("\nline after")
    assert scrub(cleaned) == cleaned  # idempotent


NOT_SHAPED_SECRETS = [
    # a URL's user that is a name, not a key; an address
    "https://github.com/org/repo",
    "git@github.com:org/repo.git",
    "ssh://git@github.com/org/repo.git",
    "postgres://postgres@localhost:5432/app",
    "https://deploy@ci.example.com/job/42",
    "mail user@example.com or ada.lovelace1815@example.com",
    "ftp://anonymous@ftp.example.com/pub",
    # -p, -a, -w that are no password: a port, a flag of another tool
    "docker run -p 8080:80 nginx",
    "docker run -d -p 5432:5432 postgres && docker login ghcr.io",
    "ssh -p 2222 deploy@host",
    "sshpass -f ~/.sshpass ssh host",
    "sshpass -e ssh deploy@host",
    "redis-cli -h cache -p 6379 ping",
    "ldapsearch -x -W -D cn=admin -b dc=example",
    "mkdir -p build/out",
    "git commit -a -m 'fix' -p",
    # an option that takes no secret here: a metavar, a variable, a file, a count, a flag
    "usage: deploy [-h] [--token TOKEN] [--api-key API_KEY] [--password PASSWORD]",
    "  --token TEXT      the API token",
    "echo $PW | docker login --password-stdin -u ada ghcr.io",
    "gh release create --token $GITHUB_TOKEN v1",
    'curl --token "${API_TOKEN}" https://api',
    "deploy --token-file /run/secrets/token",
    "llm --max-tokens 4096 --temperature 0",
    "pg_dump --no-password app",
    "ansible-playbook --ask-pass site.yml",
    "docker build --secret id=npmrc,src=.npmrc .",
    "cli --api-key <your-key> run",
    "cli --password --verbose",
    # Google, Discord, Slack words with no token
    "see ya29 docs; token prefix ya29.",
    "https://discord.com/api/webhooks",
    "https://discord.com/channels/123456789012345678/987654321098765432",
    "https://hooks.slack.com/services",
]


@pytest.mark.parametrize("text", NOT_SHAPED_SECRETS)
def test_text_only_like_a_shaped_secret_stays_readable(text):
    assert scrub(text) == text
