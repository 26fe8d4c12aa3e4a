"""Scrub secrets from everything that is stored, logged, reported or sent to a model.

One function, ``scrub(text)``, and ``scrub_data(value)``, which applies it to every string in a
nested structure (events, reports, records, task fields). Every path out goes through one of them:
memory records (every string field, stores/record.py), the event log (events.py), the model
transcript (models/transcript.py), ``report.json`` (nodes/report.py), and what enters the
checkpointed conversation and so the prompt: tool observations (file contents, file lists, search
hits, diffs), the memory brief, test output and the task's free text.

Two passes. First ``detect-secrets`` (secret_scanner.py: its shaped plugins and keyword detector, on
the text in memory, no allowlist pragma honoured); then this module's table, for what it does not
know: the body of a PEM key (its plugin finds the first line only), Hugging Face (``hf_``), Google
(``AIza``; OAuth ``ya29.``, ``1//0`` and ``GOCSPX-``), Vault (``hvs.``), age and DigitalOcean keys,
webhook URLs whose path is the token (Slack, Discord, Teams), a URL's userinfo (``scheme://user:pw@``,
and ``scheme://key@host`` when the user is a key, as in a Sentry DSN), bare ``KEY=value``
assignments, and the forms known by their context (secret_contexts.py: .netrc, .pgpass, ODBC ``Pwd=``,
``curl -u``, ``mysql -p``, ``Authorization:`` and cookie headers, a Docker config's ``auth``, a URL's
``?key=``, a long option naming a secret (``--token X``, ``--api-key X``, ``['--password', 'X']``)
and the password options of tools that take one (``sshpass -p``, ``docker login -p``,
``redis-cli -a``, ``ldapsearch -w``, ``keytool -storepass``...)). Each format has a row in
tests/test_redact.py, tests/test_secret_contexts.py or tests/test_secret_forms.py (``SHAPED``, with
the text that only looks like one). A key glued to a name by an underscore (``test_sk-proj-...``, a
test id that holds a key) is a key too (tests/test_redact_glued.py), and so is one after an escaped
line break (a repr's ``'...\\nhf_...'``). Every pattern of the table is linear (bounded repeats, no nested
quantifiers), so scrubbing a 200 kB test log stays cheap (scripts/bench_scrub.py measures both
passes).

Secrets with no shape of their own are found by their name: a value given to a key that names a
secret (``password``, ``client_secret``, ``aws_secret_access_key``, ``AccountKey``, ``api_key``,
``token``, ``DB_PASS``...) in every form it takes in test output (tests/test_secret_forms.py has a row per form):
``key = value``, ``KEY=value``, ``key: value``, ``'key': 'value'`` (a dict repr, a pytest assertion
diff), ``"key": "value"`` (JSON, and JSON inside a JSON string), ``obj["key"] == "value"``. A key
that names a property of a secret (``password_length``, ``token_count``, ``token_type``) is not a
secret, nor is a value that is code (``password=password``, ``token=self.token``, a call, a number,
``None``) or a word in prose (``invalid token: expected 3 parts``). Not covered: a secret with no
key and no shape (a bare password in a sentence), a quoted value with a space in it (prose and
passphrases look alike), a URL's user alone that is short or has no digit (``ssh://git@``,
``postgres://postgres@`` are names), and a one-letter password option of a tool not listed in
secret_contexts.py (``-p`` is a port as often as a password).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from astra_memory.secret_contexts import scrub_contexts
from astra_memory.secret_names import (  # noqa: F401 (re-exported)
    MIN_QUOTED_CHARS,
    REDACTED,
    SECRET_WORDS,
    names_a_secret,
)
from astra_memory.secret_scanner import redact_spans

# Where a shaped key may start: after anything but a letter or digit. An underscore too (``\b`` would
# not match there): a key glued to a name is still a key (``test_sk-proj-...`` in a test id,
# ``x_ghp_...``, ``x_AKIA...``); ``_glued_name`` keeps the few matches that are words of that name.
# After an escaped line break too: a repr's ``'...\\nhf_...'`` starts a line.
_START = r"(?<![^\W_](?<!\\[nrt]))"
# (what it is, pattern), applied in this order (PEM first: its body may hold anything).
SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern)) for name, pattern in (
    # PEM private keys: the whole block; a block cut off before its END line loses everything after BEGIN.
    ("pem private key", r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                        r"(?:[\s\S]{0,20000}?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)"),
    ("openai / anthropic key", _START + r"sk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    ("stripe key", _START + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}|" + _START + r"whsec_[A-Za-z0-9]{16,}"),
    ("github token", _START + r"gh[pousr]_[A-Za-z0-9]{20,}|" + _START + r"github_pat_[A-Za-z0-9_]{22,}"),
    ("gitlab token", _START + r"glpat-[A-Za-z0-9_\-]{20,}"),
    ("hugging face token", _START + r"hf_[A-Za-z0-9]{30,}"),
    ("slack token", _START + r"xox[abeoprs]-[A-Za-z0-9-]{10,}"),
    # webhook URLs whose path is the credential: the host and (Discord) the webhook's id stay
    ("slack webhook", r"(?P<pre>https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/]{20,}"),
    ("discord webhook", r"(?P<pre>https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v\d{1,2})?/webhooks/\d{1,30}/)"
                        r"[A-Za-z0-9_\-]{20,256}"),
    ("teams webhook", r"(?i:(?P<pre>https://[a-z0-9\-]{1,63}\.webhook\.office\.com/webhookb2/))[^\s\"'`<>\\]{20,1024}"),
    ("google api key", _START + r"AIza[0-9A-Za-z_\-]{35}"),
    # Google OAuth: an access token (ya29.), a refresh token (1//0), a client secret (GOCSPX-)
    ("google oauth token", _START + r"(?:ya29\.[A-Za-z0-9_\-]{20,}|GOCSPX-[A-Za-z0-9_\-]{24,})"
                           r"|(?<![\w/])1//0[A-Za-z0-9_\-]{30,}"),
    ("aws access key id", _START + r"(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("npm token", _START + r"npm_[A-Za-z0-9]{36}\b"),
    ("pypi token", _START + r"pypi-AgE[A-Za-z0-9_\-]{20,}"),
    ("hashicorp vault token", _START + r"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    ("age secret key", _START + r"AGE-SECRET-KEY-1[0-9A-Z]{50,}"),
    ("digitalocean token", _START + r"do[opr]_v1_[a-f0-9]{64}"),
    ("sendgrid key", _START + r"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    # header.payload.signature, the first two base64url JSON objects (so they start with "eyJ")
    ("json web token", _START + r"eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*"),
    ("bearer token", r"(?<!\w(?<!\\[nrt]))(?i:bearer)\s+[A-Za-z0-9._~+/=\-]{8,}"),
    ("basic auth header", r"(?i:(?<=authorization: basic ))[A-Za-z0-9+/=]{8,}"),
    # 40 base64 characters near "aws ... secret/key", in any form (prose, a credentials file, a dict)
    ("aws secret access key", r"(?i:(?P<pre>\baws[\w\-. ]{0,30}?(?:secret|key)[\w\-. \"'\\:=]{0,30}?))"
                              r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
    # Azure storage / Service Bus connection strings, and a SAS token's signature
    ("azure account key", r"(?i:(?P<pre>\b(?:Account|SharedAccess)Key\s{0,4}=\s{0,4}))[A-Za-z0-9+/]{16,}={0,2}"),
    ("azure sas signature", r"(?P<pre>[?&;]sig=)[A-Za-z0-9%+/=]{16,}"),
))
# user:password@host in a URL (any scheme, or none, as in a bare `user:pass@db.example.com:5432`);
# bounded and anchored: an unbounded scheme backtracks quadratically over long base64-like runs.
_URL_PASSWORD = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://)(?P<user>[^:/@\s]{0,256}):(?P<pw>[^@/\s]{1,256})@"
)
# A URL whose userinfo is a single key, no password (a Sentry DSN ``https://<key>@o1.ingest.sentry.io/2``,
# ``https://<token>@git.example.com/r.git``): a key has 16 characters or more and a digit among them, or
# 32 or more; a user name (``ssh://git@``, ``postgres://postgres@``, ``ftp://anonymous@``) has not.
_URL_KEY = re.compile(
    r"(?<![A-Za-z0-9+.\-])(?P<scheme>[a-zA-Z][a-zA-Z0-9+.\-]{0,31}://)(?P<key>[A-Za-z0-9._~%+\-]{16,256})@"
    r"(?=[A-Za-z0-9\[])"
)
_BARE_PASSWORD = re.compile(
    r"(?<![\w.:/@\-])(?P<user>[A-Za-z0-9_.\-]{1,64}):(?P<pw>[^@/\s:'\"]{3,256})@(?=[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)"
)
# Secrets with no shape of their own, found by the key they are given to. The key: a word naming a
# secret, bounded on both sides (a 10 kB run of word characters is not re-scanned from every
# position); then an optional closing quote / bracket (``'password':``, ``data["token"] =``, a JSON
# key, escaped or not), a separator (``=``, ``:``, ``==``, ``:=``, ``=>``; never ``::`` as in a
# pytest node id, nor ``://``), and the value: quoted (no whitespace, no line break; a closing quote
# cut off at the end of a line still counts) or bare (up to a delimiter).
_KEY = rf"(?<![\w\-])(?P<key>[\w\-]{{0,40}}?(?:{SECRET_WORDS})[\w\-]{{0,40}}?)(?![\w\-])"
_BARE_CHARS = r"[^\s\"'`,;()\[\]{}<>&]"
_KEYED = re.compile(
    rf"(?i){_KEY}(?P<sep>\\?[\"'`]?\]?[ \t]{{0,8}}(?::=|=>|==?|:(?![:/]))[ \t]{{0,8}})"
    r"(?:(?P<q>\\?[\"'`])(?P<quoted>(?:[^\"'`\s\\]|\\[^\"'`\s]){1,256})(?P<close>(?P=q)|(?=\r?\n|$))"
    rf"|(?P<bare>{_BARE_CHARS}{{1,256}})(?!{_BARE_CHARS}))"
)
# A bare value that is code or a placeholder, not a secret: a number, a constant, a (dotted) name
# holding the secret (``password=password``, ``token=self.token``, ``api_key=DEFAULT_API_KEY``).
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_NAME_OF_A_SECRET = re.compile(rf"(?i)\w*_\w*(?:{SECRET_WORDS})\w*|\w*(?:{SECRET_WORDS})\w*_\w*")
_CONSTANTS = frozenset({"none", "null", "nil", "true", "false", "undefined", "yes", "no", "required", "optional"})
MIN_BARE_CHARS = 6


def _bare_is_secret(key: str, sep: str, value: str, at_line_end: bool) -> bool:
    if len(value) < MIN_BARE_CHARS or value.lower() in _CONSTANTS or value.startswith(("$", "%")):
        return False
    if value.strip("*xX.-") == "" or value.lower() == key.lower():
        return False
    if _NUMBER.fullmatch(value) or _DOTTED_NAME.fullmatch(value) or _NAME_OF_A_SECRET.fullmatch(value):
        return False
    if not value.isalpha():  # digits or symbols: not a word of prose
        return True
    # A word of letters: an assignment (``PASSWORD=word``, ``password = word``), a constant's name
    # (``DB_PASSWORD: word``), or a config line's whole value (``password: word``), not prose.
    return "=" in sep or any(c.isupper() for c in key) or at_line_end


def _keyed(match: re.Match[str]) -> str:
    key, sep = match["key"], match["sep"]
    if not names_a_secret(key):
        return match[0]
    if match["q"] is not None:
        if len(match["quoted"]) < MIN_QUOTED_CHARS or match["quoted"] == REDACTED:
            return match[0]
        return f"{key}{sep}{match['q']}{REDACTED}{match['close']}"
    end = match.end()
    at_line_end = end == len(match.string) or match.string[end] in "\r\n"
    if not _bare_is_secret(key, sep, match["bare"], at_line_end):
        return match[0]
    return f"{key}{sep}{REDACTED}"


# A match glued to a name (after "_") that is lowercase letters only and short is a word of that name
# (``test_sk_test_connections``, ``check_rk_live_subscription``), not a key: every key format here
# has a longer random body, or capitals and digits in it.
_NAME_PART = re.compile(r"[a-z_\-]{1,31}")


def _glued_name(match: re.Match[str]) -> bool:
    start = match.start()
    return start > 0 and match.string[start - 1] == "_" and _NAME_PART.fullmatch(match[0]) is not None


def _shaped(match: re.Match[str]) -> str:
    return match[0] if _glued_name(match) else REDACTED


def _url_key(match: re.Match[str]) -> str:
    key = match["key"]
    if len(key) >= 32 or any(c.isdigit() for c in key):
        return f"{match['scheme']}{REDACTED}@"
    return match[0]


def scrub(text: str) -> str:
    """Replace every secret this module knows the shape of with ``[REDACTED]``.

    Keys and tokens of the formats in ``SECRET_PATTERNS``, PEM private keys, bearer and basic
    credentials, passwords in URLs, and values given to keys that name a secret (``password``,
    ``client_secret``, ``api_key``...) in any of the forms the module docstring lists.
    """
    if not text or not isinstance(text, str):
        return text
    return _remembered(text) if len(text) <= MEMO_MAX_CHARS else scrub_once(text)


def scrub_once(text: str) -> str:
    """``scrub`` worked out, never remembered (scripts/bench_scrub.py times it)."""
    return scrub_table(redact_spans(text, REDACTED))  # detect-secrets first (secret_scanner.py)


# A record's strings are scrubbed each time it is read (stores/record.py), and a session reads the same
# records at each search: 18 strings a record, 35 records a search; 7.4 of 23.7 CPU-s of `bench retrieval`
# on the shipped cases went there (cProfile, 2026-12-08). A text's result never changes, so the latest
# MEMO_TEXTS are remembered, each at most MEMO_MAX_CHARS long (a bound on what the memo holds).
MEMO_TEXTS = 2048
MEMO_MAX_CHARS = 16_384
_remembered = lru_cache(maxsize=MEMO_TEXTS)(scrub_once)


def scrub_table(text: str) -> str:
    """The second pass alone: this module's table and secret_contexts.py (scripts/bench_scrub.py times it)."""
    for _, pattern in SECRET_PATTERNS:
        if "pre" in pattern.groupindex:  # the words before the secret stay
            text = pattern.sub(lambda m: f"{m['pre']}{REDACTED}", text)
        else:
            text = pattern.sub(_shaped, text)
    text = scrub_contexts(text)
    text = _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{REDACTED}@", text)
    text = _URL_KEY.sub(_url_key, text)
    text = _BARE_PASSWORD.sub(lambda m: f"{m['user']}:{REDACTED}@", text)
    return _KEYED.sub(_keyed, text)


def scrub_data(value: Any) -> Any:
    """``scrub`` applied to every string in ``value`` (dicts, lists and tuples, at any depth; keys too).

    A string under a key that names a secret (``{"password": "..."}``, ``{"DB_TOKEN": "..."}``) is
    redacted whole: as data, no text around the value shows whose it is.
    """
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub_data(k): _keyed_value(k, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(scrub_data(v) for v in value)
    return value


def _keyed_value(key: Any, value: Any) -> Any:
    if isinstance(key, str) and isinstance(value, str) and value and names_a_secret(key):
        return REDACTED
    return scrub_data(value)
