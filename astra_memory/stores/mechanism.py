"""What kind of bug a cause describes, without the project's own names: the text a diagnosis is
matched with.

Why: a cause names the project's functions, modules and values ("``Version.compare`` called
``_cmp(v2, v1)`` with the operands swapped"). MiniLM weighs those names heavily, so a diagnosis of
one bug in a library was nearest to that library's fixes of *other* bugs, and far from the same
kind of bug in another library. With the names, quoted values and numbers taken out of both sides
("called with the operands swapped"), the words left are the mechanism's. Measured on the
development sets (docs/results.md, "Causes without the project's names"): the diagnosis search's
recall@1 rose on all three (dev 0.824 to 0.941, dev-extra 0.900 to 1.000, real test output of
14 libraries 0.138 to 0.379), and the own-library fix of another kind ranked first in 9 of 29
queries instead of 14.

How: the store indexes this text as a second field of every fix (``CAUSE_FIELD``, beside the
embedded symptom and fix); LangGraph's stores keep one vector per field and score a record by its
best field. The field is the record's derived ``cause_text``, which the previous version already
wrote and drops when it reads a record, so a memory this version writes stays readable by it (a
team on one PostgreSQL may upgrade one machine at a time). The diagnosis search is made with the same
reduction of the diagnosis. A record written before has only its first vector, and is found by it.

Taken out: a leading ``ErrorType:``; quoted text ('...', "...", `...`); dotted names
(``a.b.c``), calls (``f(x)``), names with an underscore or an inner capital (``snake_case``,
``camelCase``, ``TypeError``); numbers. Regular expressions run on RE2 (linear time: the text comes
from a model and from memory files, both untrusted).
"""

from __future__ import annotations

import re2

CAUSE_FIELD = "cause_text"  # the stored value's field: the cause as diagnoses are matched with it
MAX_INPUT_CHARS = 4_000  # a diagnosis's cause is at most 2,000; a fix description a little more

_HEAD = re2.compile(r"^\s*[\w.]+:\s")  # "AssertionError: " (the error type is matched elsewhere)
_QUOTED = re2.compile(r"(^|[^\w])('[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`)")  # not an apostrophe inside a word
_CODE = re2.compile(
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?"  # dotted names: pkg.mod.func, obj.attr()
    r"|\w+\([^)\n]*\)"  # calls with their arguments: f(x, y)
    r"|\b\w*_\w*\b"  # snake_case, _private, dunder
    r"|\b[a-z]+[A-Z]\w*\b"  # camelCase
    r"|\b[A-Z][a-z]+[A-Z]\w*\b"  # CamelCase with an inner capital: TypeError, OrderedDict
    r"|[-+]?\d[\d.,]*"  # numbers and versions
)
_SPACE = re2.compile(r"\s+")


def mechanism_text(cause: str) -> str:
    """``cause`` without its error type, quoted values, code names and numbers (see the module);
    the cause itself, whitespace-folded, when nothing would be left."""
    text = (cause or "")[:MAX_INPUT_CHARS]
    body = _HEAD.sub("", text, count=1)
    body = _QUOTED.sub(r"\1 ", body)
    body = _CODE.sub(" ", body)
    body = _SPACE.sub(" ", body).strip()
    if not any(ch.isalpha() for ch in body):
        return _SPACE.sub(" ", text).strip()
    return body
