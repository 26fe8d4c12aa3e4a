"""Secrets known by the context they sit in: a config file's layout, a command line, a header.

Each rule is a pattern whose group ``secret`` is the secret; the text around it stays, so whose
secret it was stays readable. ``scrub_contexts(text)`` applies them all (redact.scrub calls it after
detect-secrets and the shaped table). A row per form in tests/test_secret_contexts.py (command-line
options: ``SHAPED`` in tests/test_secret_forms.py, with the options that take no secret). Every pattern
is bounded (no unbounded repeat before the secret), so a long line is not re-scanned from every
position.
"""

from __future__ import annotations

import re

REDACTED = "[REDACTED]"

# A value: up to whitespace, a quote or a delimiter, at most 256 characters.
_VALUE = r"[^\s\"'`;,]{1,256}"
# Where a line of a file starts in test output: the start of a line, after pytest's ``E`` marker
# (an assertion message; a test that ran pytest shows two), or after an escaped newline (a string's
# repr: ``'...\\nhost:5432:...'``).
_LINE_START = r"(?:(?m:^)(?:[ \t]{0,16}E(?=[ \t])){0,4}[ \t]*|(?<=\\n))"
_LINE_END = r"(?=[ \t]*(?:\r?(?m:$)|\\{1,8}[rn]|[\"']))"
# Between two words of a file that spans lines: blanks, a line break, pytest's ``E`` marker, an
# escaped newline (``\\n``, escaped once or more).
_GAP = r"(?:[ \t]|\r?\n|(?<=\s)E(?=[ \t])|\\{1,8}[nrt]){1,40}"
CONTEXT_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(pattern)) for name, pattern in (
    # ~/.netrc: ``machine host login user password PW`` (one line or several, ``default`` for any host);
    # a login or account before the password, or it is prose (``machine learning password reset``)
    ("netrc password", r"(?i)(?<![\w-])(?:machine[ \t]+[^\s\\]{1,256}|default)"
                       rf"(?:{_GAP}(?:login|account|port)[ \t]+[^\s\\]{{1,256}}){{1,3}}{_GAP}password[ \t]+"
                       rf"(?P<secret>{_VALUE})"),
    # an ODBC / ADO.NET connection string: ``Uid=sa;Pwd=...;`` (a braced value may hold ``;``)
    ("odbc pwd", r"(?i)(?<![\w-])pwd[ \t]{0,4}=[ \t]{0,4}(?P<secret>\{[^}\r\n]{1,256}\}|(?![/~])[^\s;\"'`]{1,256})"),
    # a ~/.pgpass line: hostname:port:database:username:password (the whole line, nothing else on it;
    # a password with a backslash or a quote in it is cut there: its tail is left)
    ("pgpass line", _LINE_START + r"[^\s:#\\'\"][^\s:\\'\"]{0,255}:(?:\d{1,5}|\*):[^\s:\\]{1,256}:[^\s:\\]{1,256}:"
                    r"(?P<secret>[^\s\\'\"]{1,256})" + _LINE_END),
    # ``Authorization: <scheme> <credentials>``, any scheme (Token, Bearer, Basic, Digest...), any quoting
    ("authorization header", r"(?i)(?<![\w-])(?:proxy-)?authorization\\{0,8}[\"']?[ \t]{0,4}[:=][ \t]{0,4}\\{0,8}[\"']?"
                             r"(?:[A-Za-z][\w\-]{0,30}[ \t]{1,4})?(?P<secret>(?!\[REDACTED\])[A-Za-z0-9._~+/=\-:]{6,4096})"),
    # ``curl -u user:pass``, ``--user user:pass``, ``--proxy-user``, ``-U`` (wget's is ``--password``)
    ("user:password option", r"(?<!\S)(?:-u|-U|--user|--proxy-user)(?:[ \t]{1,8}|=)[\"']?[^\s:\"']{1,256}:"
                             r"(?P<secret>(?!\[REDACTED\])(?!\d{1,10}(?![^\s\"']))[^\s\"']{1,256})"),  # not ``-u 1000:1000``
    # ``mysql -pPASS`` (and mysqldump, mysqladmin, mariadb): the password glued to -p
    ("mysql -p", r"(?i)\b(?:mysql(?:dump|admin|import|check)?|mariadb(?:-dump)?)\b[^\r\n|;&]{0,200}?"
                 r"(?<!\S)-p(?P<secret>(?!\[REDACTED\])[^\s\"']{1,256})"),
    # a Docker config.json: ``"auths": {"registry": {"auth": "<base64 user:password>"}}`` (JSON, escaped
    # once or more: JSON in a Python string in a JSON event)
    ("docker config auth", r"(?i)\"auth\\{0,8}\"[ \t]{0,4}:[ \t]{0,4}\\{0,8}\"(?P<secret>[A-Za-z0-9+/]{8,4096}={0,2})\\{0,8}\""),
    # ``Cookie: a=b; sessionid=...`` and ``Set-Cookie: sessionid=...; Path=/``: the first cookie's value here,
    # the others by _COOKIE_PAIR (every value of the header, never its attributes)
    ("cookie header", r"(?i)(?<![\w-])(?:set-)?cookie\\{0,8}[\"']?[ \t]{0,4}[:=][ \t]{0,4}\\{0,8}[\"']?"
                      r"(?!(?i:path|domain|expires|max-age|samesite)=)[\w.\-!#$%&'*+^`|~]{1,128}=(?P<secret>(?!\[REDACTED\])[^\s;,\"']{1,4096})"),
    # an .npmrc line: ``//registry.npmjs.org/:_authToken=...`` (also ``_auth=``, ``_password=``)
    ("npmrc auth", r"(?i)(?<![\w-])_(?:authToken|auth|password)[ \t]{0,4}=[ \t]{0,4}[\"']?"
                   r"(?P<secret>(?!\[REDACTED\])[^\s\"']{1,1024})"),
    # a URL's query parameter that carries a key: ``?key=...``, ``&access_token=...``, ``?api-key=...``
    ("url key parameter", r"(?i)[?&](?:key|apikey|api[-_]key|access[-_]token|token|auth|code|secret|password|sig)="
                          r"(?P<secret>(?!\[REDACTED\])[^\s&#\"'<>]{1,1024})"),
))
# A command-line option's value: maybe quoted (a quote escaped once or more in a repr or JSON), not a
# placeholder or a variable (``$TOKEN``, ``<key>``, ``${{ secrets.X }}``), not another option, not a
# metavar (``--token TOKEN``), not already redacted.
_OPTION_VALUE = (r"\\{0,8}[\"']?(?P<secret>(?!\[REDACTED\])(?![-$<{\[%*])(?![A-Z][A-Z_]{0,40}(?![^\s\"'`\\\])]))"
                 r"[^\s\"'`\\]{1,256})")
# The line of a command, up to the option: no line break (nor an escaped one), pipe or command separator.
_SAME_COMMAND = r"(?:[^\r\n|;&\\]|\\(?![nrt\\]))"
# Tools whose short option takes a password (``sshpass -p``, ``docker login -p``, ``redis-cli -a``,
# ``ldapsearch -w``, ``sqlcmd -P``...); the same letter of another tool is left (``docker run -p 8080``).
_PASSWORD_SHORT_OPTIONS = (
    (r"sshpass", "p", True),
    (r"(?:docker|podman|buildah|nerdctl|skopeo|oras|helm[ \t]{1,8}registry)[ \t]{1,8}login", "p", False),
    (r"twine|mongo(?:sh|dump|restore|export|import|stat|top)?|az[ \t]{1,8}login", "p", False),
    (r"redis-cli|keydb-cli", "a", False),
    (r"ldap(?:search|modify|add|delete|passwd|whoami|compare|modrdn|exop)", "w", False),
    (r"sqlcmd|bcp|osql|mosquitto_(?:pub|sub|rr)", "P", False),
)
CONTEXT_RULES += tuple((name, re.compile(pattern)) for name, pattern in (
    # one pattern for them all (one scan of the text, not one per tool)
    ("password option of a tool", r"(?<![\w-](?<!\\[nrt]))(?:" + "|".join(
        rf"(?:{tools})(?![\w-]){_SAME_COMMAND}{{0,200}}?(?<!\S)-{letter}"
        + (r"(?:[ \t]{1,8}|(?=[^\s\"'\\-]))" if glued else r"[ \t]{1,8}")
        for tools, letter, glued in _PASSWORD_SHORT_OPTIONS) + ")" + _OPTION_VALUE),
    # keytool / jarsigner: ``-storepass X``, ``-keypass X`` (also ``-srcstorepass``, ``-deststorepass``)
    ("keystore password", r"(?<!\S)-(?:src|dest)?(?:store|key)pass[ \t]{1,8}(?!:)" + _OPTION_VALUE),
    # a long option naming a secret, any tool: ``--token X``, ``--api-key X``, ``--db-password 'X'``,
    # ``--client-secret=X``, and the same as a list of arguments (``['--token', 'X']``). Not an option
    # that only names one (``--token-file``, ``--password-stdin``, ``--max-tokens``, ``--no-password``,
    # ``--ask-pass``), nor a build secret's spec (``--secret id=npmrc,src=.npmrc``).
    ("secret option", r"(?i)(?<![\w-](?<!\\[nrt]))--(?!(?:no|ask|prompt|with|show|print)-)(?:[a-z0-9]{1,20}-){0,4}"
                      r"(?:token|api-?key|apikey|access-key|secret-key|secret-access-key|client-secret|secret|password"
                      r"|passwd|passphrase|pass|oauth2-bearer)(?![\w-])"
                      r"(?:\\{0,8}[\"'],[ \t]{0,4}|[ \t]{1,8}|=)(?![a-z]{1,8}=)" + _OPTION_VALUE),
))
_COOKIE_HEADER = re.compile(r"(?i)(?<![\w-])(?:set-)?cookie\\?[\"']?[ \t]{0,4}[:=][^\r\n]{0,8192}")
_COOKIE_PAIR = re.compile(r"(?P<pre>;[ \t]{0,8}(?P<name>[\w.\-!#$%&*+^`|~]{1,128})=)(?P<secret>[^\s;,\"']{1,4096})")
COOKIE_ATTRIBUTES = frozenset({"path", "domain", "expires", "max-age", "samesite", "priority", "partitioned",
                               "version", "comment"})


def _redact_group(match: re.Match[str]) -> str:
    start, end = match.span("secret")
    base = match.start()
    whole = match.group(0)
    return whole[:start - base] + REDACTED + whole[end - base:]


def _cookie_line(match: re.Match[str]) -> str:
    def pair(m: re.Match[str]) -> str:
        if m["name"].lower() in COOKIE_ATTRIBUTES or m["secret"] == REDACTED:
            return m[0]
        return m["pre"] + REDACTED
    return _COOKIE_PAIR.sub(pair, match[0])


def scrub_contexts(text: str) -> str:
    """Every secret ``CONTEXT_RULES`` knows by its context, replaced by ``[REDACTED]``."""
    for _, pattern in CONTEXT_RULES:
        text = pattern.sub(_redact_group, text)
    return _COOKIE_HEADER.sub(_cookie_line, text)
