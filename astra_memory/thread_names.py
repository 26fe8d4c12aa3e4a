"""A thread id is a name, not a path: one rule for every place an id enters (CLI, library, Studio).

Thread ids become folder names (``ASTRA_HOME/runs/<thread>``), keys in the checkpoint database
and fields of stored records, so an id such as ``/some/dir`` or ``../../x`` must never get as far
as a path join. The alphabet is short on purpose: letters, digits, ``.``, ``_`` and ``-``, starting
with a letter or digit, at most 64 characters, and never ``..`` anywhere.
"""

from __future__ import annotations

import re

from astra_memory.errors import ConfigurationError

MAX_LENGTH = 64
_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,%d}" % (MAX_LENGTH - 1))
_UNSAFE_RUN = re.compile(r"[^A-Za-z0-9._-]+")


class InvalidThreadIdError(ConfigurationError):
    """A thread id outside the safe alphabet (it would be used as a folder name)."""


def check_thread_id(thread_id: object) -> str:
    """``thread_id`` itself if it is a safe name; otherwise an InvalidThreadIdError saying why."""
    if not isinstance(thread_id, str) or not _SAFE.fullmatch(thread_id) or ".." in thread_id:
        shown = repr(thread_id)[:80]
        raise InvalidThreadIdError(
            f"thread id {shown} is not a valid name: use 1-{MAX_LENGTH} letters, digits, '.', '_' or '-', "
            "starting with a letter or digit, without '..' (a thread id is a name, not a path)")
    return thread_id


def slug(text: str, *, fallback: str = "session", max_length: int = 40) -> str:
    """A safe prefix derived from free text (a scenario name or the last part of its path)."""
    cleaned = _UNSAFE_RUN.sub("-", text).replace("..", "-").strip("-._")[:max_length].strip("-._")
    return cleaned or fallback
