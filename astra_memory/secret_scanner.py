"""The first pass of secret redaction: detect-secrets' plugins and keyword detector, on text in memory.

``secret_spans(text)`` gives the ``(start, end)`` spans of every secret detect-secrets (1.5.0) finds
in ``text``; ``redact.scrub`` replaces them before its own table (redact.py, secret_contexts.py)
runs on the rest. Only the library's detectors are used, on a string: no files, no baseline, no
settings singleton, no git, and never a plugin's ``verify`` (the one step that would reach the
network). What is left out, and why:

- high-entropy strings (base64 / hex) and public IP addresses: noisy in test output (hashes, ids,
  addresses in tracebacks);
- Artifactory (``AP[0-9A-F]...`` matches ordinary capitalised words) and the private-key detector
  (it finds a PEM header, not the key's body; the table's PEM rule takes the whole block), and npm
  (``//.+/:_authToken`` is quadratic on a long line: 12 s on tests/test_redact.py's hostile log;
  the table has ``npm_`` and secret_contexts.py the ``_authToken=`` line);
- every filter that reads the text for permission: an allowlist pragma (``# pragma: allowlist
  secret``) is text a hostile file can write, so it is never honoured here.

The keyword detector runs in its quotes-required form (``password = "..."``, ``"secret": "..."``,
``'...' == api_key``); a bare ``KEY=value`` is the table's. Its findings go through the same vetoes
as the table's: a key that names a property of a secret (``secret_name``, ``token_type``) and a
value that is a template, a ``$`` reference or not text at all is not a secret.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product

from detect_secrets.filters.heuristic import (
    is_not_alphanumeric_string,
    is_prefixed_with_dollar_sign,
    is_sequential_string,
    is_templated_secret,
)
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import DENYLIST_REGEX, QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

# The shaped detectors: each has ``denylist``, a tuple of compiled patterns.
SHAPED_DETECTORS = (
    AWSKeyDetector, AzureStorageKeyDetector, BasicAuthDetector, CloudantDetector, DiscordBotTokenDetector,
    GitHubTokenDetector, GitLabTokenDetector, IbmCloudIamDetector, IbmCosHmacDetector, JwtTokenDetector,
    MailchimpDetector, OpenAIDetector, PypiTokenDetector, SendGridDetector, SlackDetector,
    SoftlayerDetector, SquareOAuthDetector, StripeDetector, TelegramBotTokenDetector, TwilioKeyDetector,
)
# A shaped detector's group may be a token's prefix only (GitHub's ``(ghp|gho...)_...``) or stop short
# of its end (the JWT pattern's lazy signature): a span runs on to the end of the token it is in.
_TOKEN_TAIL = re.compile(r"[A-Za-z0-9_\-+/=.]*")
_KEY_HEAD = re.compile(r"[\w\-]*")
_KEYWORD = re.compile(DENYLIST_REGEX, re.IGNORECASE)


@lru_cache(maxsize=1)
def _shaped_patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(pattern for detector in SHAPED_DETECTORS for pattern in detector.denylist)


def _shaped_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for pattern in _shaped_patterns():
        for match in pattern.finditer(text):
            groups = [i for i in range(1, (pattern.groups or 0) + 1) if match.group(i)]
            start, end = (match.span(groups[-1]) if groups else match.span())
            if groups and pattern.groups > 1:  # the secret is the longest group (the others are quotes)
                start, end = max((match.span(i) for i in groups), key=lambda s: s[1] - s[0])
            tail = _TOKEN_TAIL.match(text, end).group().rstrip(".")
            spans.append((start, end + len(tail)))
    return spans


def _keyword_spans(text: str) -> list[tuple[int, int]]:
    from astra_memory.secret_names import MIN_QUOTED_CHARS, REDACTED, names_a_secret  # the table's vetoes

    spans = []
    rules = QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP.items()
    for (start, end), (pattern, group) in product(_keyword_windows(text), rules):
        for match in pattern.finditer(text, start, end):
            value = match.group(group)
            key = _key_around(text, match)
            if key is not None and not names_a_secret(key):
                continue
            if (len(value) < MIN_QUOTED_CHARS or value == REDACTED or is_templated_secret(value)
                    or is_prefixed_with_dollar_sign(value) or is_not_alphanumeric_string(value)
                    or is_sequential_string(value)):
                continue
            spans.append(match.span(group))
    return spans


def _keyword_windows(text: str) -> list[tuple[int, int]]:
    """Where the keyword detector's patterns run: the line of each keyword and the line after it.

    One scan for the keywords instead of one per pattern (each pattern alone costs as much as
    this scan); a value more than a line after its keyword is not looked for.
    """
    windows: list[tuple[int, int]] = []
    for match in _KEYWORD.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        end = len(text) if end < 0 else text.find("\n", end + 1)
        end = len(text) if end < 0 else end
        if windows and start <= windows[-1][1]:  # overlaps the last window: that window grows
            windows[-1] = (windows[-1][0], max(end, windows[-1][1]))
        else:
            windows.append((start, end))
    return windows


def _key_around(text: str, match: re.Match[str]) -> str | None:
    """The whole name the keyword is part of (``DB_PASSWORD``, ``secret_name``); None when it follows the value."""
    if match.group(0)[:1] in "'\"`":  # ``'value' == password``: the keyword is at the end
        return None
    start = match.start()
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-"):
        start -= 1
    return text[start:match.start()] + _KEY_HEAD.match(text, match.start()).group()


def secret_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` detect-secrets' detectors call a secret, sorted and merged."""
    if not text:
        return []
    merged: list[tuple[int, int]] = []
    for start, end in sorted(_shaped_spans(text) + _keyword_spans(text)):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact_spans(text: str, replacement: str) -> str:
    """``text`` with every span of ``secret_spans`` replaced by ``replacement``."""
    spans = secret_spans(text)
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], replacement]
        last = end
    out.append(text[last:])
    return "".join(out)
