"""The doctests of a Python source file: the ``>>>`` examples of its docstrings, with their expected output.

A doctest is a test: when pytest ran one at observe (``--doctest-modules``; its node id is
``app/calc.py::app.calc.add``), the file it lives in stays editable (it is the source), but its
examples do not: a "fix" that rewrites ``>>> add(2, 2)`` / ``4`` to expect the buggy value is a
test edit. ``examples`` reads them with the standard library's own doctest parser from every
docstring ``ast`` finds (module, classes, functions, at any depth), keyed by qualified name, so
an edit is a test edit exactly when it changes what some docstring's examples run or expect
(workspace/protected.py, ``ProtectedPaths.why_changed``).
"""

from __future__ import annotations

import ast
import doctest

Example = tuple[str, str, str | None]  # source, expected output, expected exception message
_PARSER = doctest.DocTestParser()


class Unreadable(ValueError):
    """The text is not Python the examples can be read from (a syntax error, a malformed example)."""


def examples(text: str) -> dict[str, list[Example]]:
    """Each docstring's examples by qualified name (``""`` the module, ``Calc.add`` a method); docstrings
    without examples are left out. Unreadable when the text does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        raise Unreadable(f"it does not parse as Python ({exc})") from None
    found: dict[str, list[Example]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                _add(found, name, child)
                visit(child, name + ".")
            elif not isinstance(child, (ast.expr, ast.Lambda)):
                visit(child, prefix)  # an if/try/with block at this level

    _add(found, "", tree)
    visit(tree, "")
    return found


def _add(found: dict[str, list[Example]], name: str, node: ast.AST) -> None:
    doc = ast.get_docstring(node, clean=False)  # as doctest reads __doc__
    if not doc or ">>>" not in doc:
        return
    try:
        parsed = _PARSER.get_examples(doc, name or "<module>")
    except ValueError as exc:  # inconsistent indentation of an example: doctest refuses it too
        parsed = [(f"<malformed: {exc}>", doc, None)]
    else:
        parsed = [(e.source, e.want, e.exc_msg) for e in parsed]
    if parsed:
        found.setdefault(name, []).extend(parsed)


def changed(before: str, after: str) -> list[str]:
    """The qualified names (``<module>`` for the module's own docstring) whose examples in ``before``
    are changed or gone in ``after``; a new docstring with examples is a new test, not a change.
    Unreadable when ``after`` does not parse but ``before`` had examples. A ``before`` that does not
    parse had no doctest that ran."""
    try:
        old = examples(before)
    except Unreadable:
        return []
    try:
        new = examples(after)
    except Unreadable:
        if old:
            raise
        return []
    return sorted(name or "<module>" for name in old if old[name] != new.get(name))
