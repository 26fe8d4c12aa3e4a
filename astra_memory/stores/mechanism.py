"""What kind of bug a cause describes, without the project's own names: the text a diagnosis is
matched with.

Why: a cause names the project's functions, modules and values ("``Version.compare`` called
``_cmp(v2, v1)`` with the operands swapped"). MiniLM weighs those names heavily, so a diagnosis of
one bug in a library was nearest to that library's fixes of *other* bugs, and far from the same
kind of bug in another library. With the names, quoted values and numbers taken out of both sides
("called with the operands swapped"), the words left are the mechanism's. Measured
(docs/results.md, "The kind of bug, not the project's names"): on real test output of 14 libraries
(blind-3, a development set by then) the diagnosis search's recall@3 rose from 0.448 to 0.724 and
the own library's fix of another kind was ranked first in 10 of 29 queries instead of 16; on 14
other libraries never looked at (blind-4, run once) from 0.267 to 0.433, and 14 of 30 instead of 22.

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
