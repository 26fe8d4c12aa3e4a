"""The options that `run`, `resume` and `demo` share, built from the ``Context`` knobs.

A knob the command line sets carries its flag, help, range and help panel in its own field
(``cli=Flag(...)`` in context.py); the option here is made from that, named after the knob, so a
default or a help text is written once. ``@session_options`` adds them to a command and hands the
command only the ones the user gave (``given``): on ``resume`` what is not given comes from what the
session recorded, then the environment, then the default (``context.session_context``).
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any, Optional

import typer

from astra_memory.context import KNOBS, option_help

# What --help shows after a flag: nothing for a switch (typer's default says `<bool>` for every one).
METAVARS = {bool: "", int: "N", float: "NUM", str: "TEXT"}


def _option(name: str) -> tuple[Any, Any]:
    """The typer annotation and default of a knob's option. A switch either way (``--replay/--no-replay``)
    and a value are None when left off; a single switch (``--approve-live-cost``) is False."""
    meta = KNOBS[name].metadata
    flag, kind = meta["cli"], meta["kind"]
    single_switch = kind is bool and "/" not in flag.decls
    option = typer.Option(flag.decls, help=option_help(name), min=flag.min, max=flag.max,
                          rich_help_panel=flag.panel, metavar=METAVARS.get(kind))
    return Annotated[kind if single_switch else Optional[kind], option], False if single_switch else None


SESSION_OPTIONS: dict[str, tuple[Any, Any]] = {name: _option(name) for name, f in KNOBS.items()
                                               if f.metadata["cli"] is not None}

# Switches either way: their off side (--chat-completions, --no-chain-responses, --no-approve-edits,
# --no-replay) is given, not left off.
FALSE_IS_GIVEN = tuple(name for name in SESSION_OPTIONS if "/" in KNOBS[name].metadata["cli"].decls)


def given_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options the user gave: a value, a switch turned on, or a switch either way turned off."""
    return {name: value for name, value in options.items()
            if value is not None and (value is not False or name in FALSE_IS_GIVEN)}


def session_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add the shared options to ``command``, which receives them as ``given`` (a dict of Context
    knobs the user set; a flag left off is not 'given', so the environment can still set it)."""
    hints = typing.get_type_hints(command, include_extras=True)  # the CLI's annotations are strings
    own = [p.replace(annotation=hints.get(p.name, p.annotation))
           for p in inspect.signature(command).parameters.values() if p.name != "given"]
    shared = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)
              for name, (annotation, default) in SESSION_OPTIONS.items()]

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = given_options({name: kwargs.pop(name, None) for name in SESSION_OPTIONS})
        return command(*args, given=given, **kwargs)

    wrapper.__signature__ = inspect.Signature(own + shared)  # what typer reads
    return wrapper
