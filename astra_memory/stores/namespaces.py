"""Memory namespaces: one memory per team or project in one database (``--namespace`` / ``ASTRA_NAMESPACE``).

The default (no name) is the one shared namespace every memory had before, ``("astra", "fixes")``.
A named one is ``("astra-ns", <name>)``: LangGraph stores search by namespace *prefix*, so a named
namespace must not sit under the default one, or a default search would return its records too.
"""

from __future__ import annotations

import re

from astra_memory.errors import ConfigurationError

DEFAULT_NAMESPACE = ("astra", "fixes")
_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def namespace_for(name: str | None) -> tuple[str, ...]:
    """The store namespace for a user's namespace name ('' or None: the shared default)."""
    if name is None or not name.strip() or name.strip() == "default":
        return DEFAULT_NAMESPACE
    name = name.strip()
    if not _NAME.match(name):
        raise ConfigurationError(f"namespace {name!r}: use 1-64 letters, digits, '-' or '_' "
                                 "(--namespace, ASTRA_NAMESPACE)")
    return ("astra-ns", name)
