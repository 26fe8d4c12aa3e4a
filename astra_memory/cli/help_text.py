"""How ``--help`` reads at any width: typer keeps a docstring's own line breaks after its first
paragraph (so an 80-column screen breaks lines mid-sentence), and names a switch's type
(``--help <bool>``) and a text's (``<str>``). ``HelpGroup`` (the root command's class) tidies every
command under it once, before the tree first runs: paragraphs are joined into one line each
(a line that starts a list item, ``- ``, or is indented stays on its own line), a switch shows no
type, a text ``TEXT``, a path ``PATH`` (a repeatable option's too: its help says so), a number ``N``."""

from __future__ import annotations

import inspect
import re

from typer.core import TyperGroup

_OWN_LINE = re.compile(r"^(\s|- |\* |\d+\. )")
_LABELS = {"<str>": "TEXT", "<path>": "PATH", "<int>": "N", "<float>": "NUM", "<int range>": "N",
           "<float range>": "NUM", "<list[str]>": "TEXT", "<list[Path]>": "PATH"}


def reflowed(text: str | None) -> str | None:
    """``text`` with each paragraph's lines joined, list items and indented lines kept apart."""
    if not text:
        return text
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.split("\n"):
            if lines and line.strip() and not _OWN_LINE.match(line) and not lines[-1].startswith("\b"):
                lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
            else:
                lines.append(line)
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def _tidy_option(option, ctx) -> None:
    if getattr(option, "param_type_name", "") != "option" or option.metavar is not None:
        return
    if option.is_flag:
        option.metavar = ""
        return
    shown = getattr(option, "display_type", None)
    label = shown(ctx) if callable(shown) else None
    if label in _LABELS:
        option.metavar = _LABELS[label]


def _quiet_help_option(command) -> None:
    """The help option is made on first use (click caches it): give it no type when it is."""
    made = command.get_help_option

    def get_help_option(ctx):
        option = made(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option  # type: ignore[method-assign]


def tidy(command) -> None:
    """Tidy ``command`` and every command under it (see the module's text)."""
    ctx = command.context_class(command)  # typer's own click: its context, not an import of click
    command.help = reflowed(command.help)
    for param in command.params:
        _tidy_option(param, ctx)
    _quiet_help_option(command)
    for sub in getattr(command, "commands", {}).values():
        tidy(sub)


class HelpGroup(TyperGroup):
    """The root group: tidies its whole tree before it first runs (typer adds the completion options
    after building the group, so not sooner)."""

    def main(self, *args, **kwargs):
        if not getattr(self, "_tidied", False):
            tidy(self)
            self._tidied = True
        return super().main(*args, **kwargs)
