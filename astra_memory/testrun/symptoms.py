"""Turn a failing test run into a failure signature and a memory query.

The query is built from observed symptoms only (error type, the exception's own message, the
failing tests' names, the failing lines of code, the values the assertion compared, the non-test
functions the traceback went through), never from a guess at the cause: memory is searched before
anyone has diagnosed anything.

Whatever options the test command was run with, the signature comes out clean: ANSI colour codes
(``--color=yes``) are removed first; ``FAILED`` summary lines cut at the terminal width are not
trusted for names or error types (the section headers and tracebacks are); parametrized ids keep
their parameters; each failing test is parsed on its own (pytest sections, unittest ``FAIL:`` /
``ERROR:`` blocks), so two different failures in one run stay two; lines of library code
(site-packages, the standard library) are never reported as failing code. A doctest failure gives
``DocTestFailure: doctest expected X, got Y`` and its failing example (or the unexpected exception);
a chained exception keeps its earlier exceptions as ``caused by``; a project's own exception is
known by its qualified name whatever its suffix; subtests (pytest's ``SUBFAILED``, unittest's
``subTest``) are items of their own. Tested on real pytest output: tests/test_symptoms_real_output.py.
The query's last line names the failing tests' ids (``failing test ids:``), never embedded: what tells
two tests of one name in two modules apart (testrun/same_ids.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field

from astra_memory.testrun.mismatch import describe_line, describe_literals
from astra_memory.testrun.same_ids import FailingTests, listed_ids, test_ids_line

# ECMA-48 CSI sequences (colours, cursor moves) and the two-byte escapes; what --color=yes adds.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
_FAILED_LINE = re.compile(r"^(FAILED|ERROR) ([^\s(].*?)(?: - (.*))?$")
# A failed subtest's summary line: pytest 9's "SUBFAILED[msg] (n=2) t.py::test_x - ...", pytest-subtests' "SUBFAIL".
_SUBFAILED_LINE = re.compile(r"^SUBFAIL(?:ED)?(?:\[[^\]]*\])?(?: \([^)]*\))? (\S+::\S+)(?: - (.*))?$")
# pytest section header: "____ test_x[1-2] ____", "____ TestA.test_b ____", "____ ERROR at setup of test_c ____"
_SECTION = re.compile(r"^_{3,} (.+?) _{3,}$")
# unittest: "FAIL: test_x (pkg.tests.TestA)" or, 3.11+, "FAIL: test_x (pkg.tests.TestA.test_x)"
_UNITTEST_HEAD = re.compile(r"^(FAIL|ERROR): (\S+)(?: \(([^)]*)\))?(?: (\[.*\]|\(.*\)))?$")
_E_LINE = re.compile(r"^E\s+(.*)$")
_EXC_NAME = re.compile(
    r"^((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Warning|Interrupt|Iteration|Operation)"
    r"|Failure|Failed|error))(?=:|\s*$)")
# pytest prints a project's own exception by its qualified name ("idna.core.InvalidCodepoint: ..."):
# on the first E line of a test, a dotted CamelCase name before a colon is the exception, whatever its suffix.
_QUALIFIED_EXC = re.compile(r"^((?:[a-z_]\w*\.)+[A-Z]\w*)(?=:|\s*$)")
# doctest: the numbered source pytest prints ("006     >>> add(-1, 1)"), its verdicts and the location.
_DOCTEST_SOURCE = re.compile(r"^\d{3,} (.*)$")
_DOCTEST_EXAMPLE = re.compile(r"^\s*>>> (.*)$")
_DOCTEST_UNEXPECTED = re.compile(r"^UNEXPECTED EXCEPTION: ([A-Za-z_][\w.]*)\((.*)\)$")
_EXC_LINE = re.compile(r"^((?:[A-Za-z_]\w*\.)*[A-Z]\w*|(?:[a-z_]\w*\.)+error)(?::\s?(.*))?$")
_TRACE_LOC = re.compile(r"^([\w./\\:~-]*[\w-]+\.py):(\d+): (?:in (\S+)|(\S+))")
_PY_TRACE = re.compile(r'^\s*File "([^"]+\.py)", line (\d+)(?:, in (\S+))?')
# pytest's diff decorations carry no meaning of their own ("?   ^", "Use -v ...", "Full diff").
_NOISE = re.compile(r"^(\?\s|\?$|Use -v|Full diff|Omitting \d+ identical|\.\.\.(?:Full output)?|$)")
# pytest marks the line that failed in each shown frame with ">" (the test's assert, the raising line).
_CODE_LINE = re.compile(r"^>\s+(\S.*)$")
_CARETS = re.compile(r"^\s*[\^~]+\s*$")
# pytest's assertion rewriting: "assert 'audit-log' == 'audit_log'", with or without the error name.
_INTROSPECTION = re.compile(r"^(?:AssertionError:\s*)?assert\b")
_LIBRARY = re.compile(r"(site-packages|dist-packages|[/\\]lib[/\\]python\d|[/\\]Lib[/\\]|^<|"
                      r"[/\\]python\d(\.\d+)?[/\\]|_pytest[/\\]|[/\\]pluggy[/\\])", re.IGNORECASE)
_TEST_FILE = re.compile(r"(^|[/\\])(tests?|testing)[/\\]|(^|[/\\])(test_[^/\\]*|[^/\\]*_test|conftest)\.py$")
# "assert False" and the like compare nothing: the "where" line after them shows the call.
_EMPTY_ASSERTS = {"assert False", "assert True", "assert None", "assert not True", "assert 0", "assert 1"}
MAX_MESSAGE_CHARS = 400
MAX_CODE_LINES = 6
MAX_CODE_CHARS = 200
MAX_VALUES = 4
MAX_FAILURES = 6
MAX_CAUSES = 2
MAX_SYMPTOM_CHARS = 4_000  # what a record's symptom holds (FixRecord.symptom and AttemptRecord.symptom read it)


def strip_ansi(text: str) -> str:
    """The text without terminal escape sequences (and without stray carriage returns)."""
    return _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")


def is_library_path(path: str) -> bool:
    """Code the project does not own: installed packages, the standard library, pytest itself."""
    return bool(_LIBRARY.search(path))


def is_test_path(path: str) -> bool:
    return bool(_TEST_FILE.search(path.replace("\\", "/")))


@dataclass
class FailureItem:
    """One failing test's own traceback: never merged with another test's."""

    test: str = ""
    error_type: str = ""
    message: str = ""  # the exception's text (explanation lines joined with " | ")
    code: list[str] = field(default_factory=list)  # failing lines of the project's own code
    frames: list[str] = field(default_factory=list)  # non-test, non-library "module.function"
    truncated: bool = False  # only known from a summary line that was cut
    causes: list[str] = field(default_factory=list)  # a chained exception's earlier ones ("KeyError: 'port'")
    module: str = ""  # a unittest test's module ("pkg.tests"), as its FAIL: line names it


@dataclass
class Failure:
    """What a failing run showed: no interpretation, only what was printed."""

    error_type: str
    failing_tests: list[str] = field(default_factory=list)
    message: str = ""
    files: list[str] = field(default_factory=list)
    failing_code: list[str] = field(default_factory=list)  # the ">" lines pytest printed, in order
    frames: list[str] = field(default_factory=list)  # the project's non-test functions in the tracebacks
    failures: list[dict] = field(default_factory=list)  # one FailureItem (as data) per failing test
    failing_ids: list[str] = field(default_factory=list)  # by pytest's own results (observe sets them)

    def to_dict(self) -> dict:
        return asdict(self)


def _module_function(path: str, function: str | None) -> str:
    """``src/reporting/loader.py`` + ``load_report`` -> ``reporting.loader.load_report``: the module
    (its file and the package folder it is in, which is all an absolute path reliably shows) and
    the function."""
    parts = [p for p in re.split(r"[/\\]", path) if p and p not in (".", "..") and not p.endswith(":")]
    stem = parts[-1][:-3] if parts else ""
    package = parts[-2] if len(parts) > 1 and parts[-2] not in ("src", "lib", "app", "~") else ""
    module = stem if stem != "__init__" else package
    module = f"{package}.{module}" if package and module != package else module
    return f"{module}.{function}" if function and function != "<module>" else module


def module_of(path: str) -> str:
    """The module of the file ``path`` as a frame of the ``in:`` line names it (``_module_function``)."""
    return _module_function(path, None)


class _Block:
    """Accumulates one failing test's lines."""

    def __init__(self, test: str = ""):
        self.item = FailureItem(test=test)
        self.messages: list[str] = []
        self.pending_code: list[str] = []
        self.expect_source = False  # the next indented line is the source of a short/python frame
        self.source_is_library = False
        self.after_exception = False  # a Python traceback's exception line was read: diff lines follow
        self.doctest = test.startswith("[doctest]")
        self.doctest_part = ""  # "expected" / "got": which verdict the indented lines belong to
        self.doctest_values: dict[str, list[str]] = {"expected": [], "got": []}

    def add_code(self, text: str) -> None:
        text = text.strip()[:MAX_CODE_CHARS]
        if text and text not in self.item.code and len(self.item.code) < MAX_CODE_LINES:
            self.item.code.append(text)

    def add_message(self, text: str) -> None:
        text = text.strip()
        if text and not _NOISE.match(text) and text not in self.messages and len(self.messages) < 8:
            self.messages.append(text)

    def frame(self, path: str, function: str | None, files: list[str]) -> None:
        norm = path.replace("\\", "/")
        library = is_library_path(norm)
        if not library:
            for code in self.pending_code:
                self.add_code(code)
            if not norm.startswith("/") and not re.match(r"^[A-Za-z]:", norm) and norm not in files:
                files.append(norm)
            if not is_test_path(norm):
                name = _module_function(norm, function)
                if name and name not in self.item.frames:
                    self.item.frames.append(name)
        self.pending_code = []
        self.expect_source, self.source_is_library = True, library

    def chain(self) -> None:
        """"The above exception was the direct cause..." / "During handling...": the exception read
        so far is a cause; the one that follows is what the test saw. The cause is kept apart."""
        if self.item.error_type or self.messages:
            cause = _head(self.item.error_type or "Error", self.messages[0] if self.messages else "")
            if cause not in self.item.causes and len(self.item.causes) < MAX_CAUSES:
                self.item.causes.append(cause[:MAX_CODE_CHARS])
        self.messages, self.item.error_type = [], ""

    def doctest_line(self, stripped: str) -> bool:
        """A line of a doctest failure: the failing example, ``Expected:`` / ``Got:`` and their values,
        or ``UNEXPECTED EXCEPTION: ValueError(...)``. False for any other line (tracebacks, locations)."""
        source = _DOCTEST_SOURCE.match(stripped)
        if source:
            example = _DOCTEST_EXAMPLE.match(source.group(1))
            if example:
                self.pending_code = [example.group(1)]  # the last example shown is the one that failed
            return True
        if stripped in ("Expected:", "Got:"):
            self.doctest_part = stripped[:-1].lower()
            return True
        if stripped in ("Expected nothing", "Got nothing"):
            self.doctest_values[stripped.split()[0].lower()].append("nothing")
            self.doctest_part = ""
            return True
        if self.doctest_part and stripped.startswith(" "):
            if len(self.doctest_values[self.doctest_part]) < MAX_VALUES:
                self.doctest_values[self.doctest_part].append(stripped.strip()[:MAX_CODE_CHARS])
            return True
        self.doctest_part = ""
        unexpected = _DOCTEST_UNEXPECTED.match(stripped)
        if unexpected:
            self.item.error_type = unexpected.group(1)
            text = unexpected.group(2)  # the exception's repr: its one argument, unquoted
            if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
                text = text[1:-1]
            self.add_message(f"{unexpected.group(1)}: {text}")
            return True
        return False

    def finish(self) -> FailureItem:
        if self.doctest and any(self.doctest_values.values()):
            expected, got = (", ".join(self.doctest_values[k]) or "nothing" for k in ("expected", "got"))
            self.add_message(f"doctest expected {expected}, got {got}")
            self.item.error_type = self.item.error_type or "DocTestFailure"
        for code in self.pending_code:  # ">" lines with no location after them (e.g. --tb=line)
            self.add_code(code)
        self.pending_code = []
        if not self.item.error_type:
            joined = " ".join(self.messages)
            self.item.error_type = "AssertionError" if joined.startswith("assert") else (
                "Error" if self.messages else "")
        self.item.message = " | ".join(self.messages)[:MAX_MESSAGE_CHARS]
        return self.item


def _exception_name(text: str, *, qualified: bool = False) -> str:
    """The exception's name at the start of ``text``; ``qualified``: also any dotted CamelCase name
    (pytest's way of printing an exception defined outside the builtins)."""
    match = _EXC_NAME.match(text) or (_QUALIFIED_EXC.match(text) if qualified else None)
    return match.group(1) if match else ""


def _summary_line(line: str) -> tuple[str, str] | None:
    """``(test id, message)`` of a ``FAILED`` / ``ERROR`` / ``SUBFAILED`` summary line, else None.
    A parametrized id may hold spaces and " - " inside its brackets: the message starts after them."""
    sub = _SUBFAILED_LINE.match(line)
    if sub:
        return sub.group(1), sub.group(2) or ""
    match = _FAILED_LINE.match(line)
    if not match or line.startswith(("FAILED (", "ERROR (")):
        return None
    test_id, message = match.group(2), match.group(3) or ""
    if "[" in test_id and not test_id.endswith("]"):  # " - " inside the brackets: find where they close
        rest, depth = line[len(match.group(1)) + 1:], 0
        for index, char in enumerate(rest):
            depth += (char == "[") - (char == "]")
            if char == "]" and depth == 0:
                test_id, tail = rest[:index + 1], rest[index + 1:]
                return test_id, tail[3:] if tail.startswith(" - ") else tail
        return rest, ""  # the brackets never close: the id itself was cut
    return test_id, message


def parse_failure(output: str) -> Failure:
    """Extract the failing tests, each with its error type, message, code and frames, from pytest
    or unittest output (any ``--tb`` style, coloured or not)."""
    output = strip_ansi(output)
    summary: list[tuple[str, str, bool]] = []  # (test id, message, cut at the terminal width)
    blocks: list[_Block] = []
    files: list[str] = []
    block: _Block | None = None
    in_python_tb = False
    for line in output.splitlines():
        stripped = line.rstrip()
        if stripped.startswith("=") and stripped.endswith("="):  # "=== FAILURES ===", "=== short test summary"
            block, in_python_tb = None, False
            continue
        entry = _summary_line(stripped)
        if entry:
            test_id, message = entry
            cut = test_id.endswith("...") or message.endswith("...")
            summary.append((test_id.removesuffix("..."), message.removesuffix("..."), cut))
            block = None
            continue
        section = _SECTION.match(stripped)
        unit = _UNITTEST_HEAD.match(stripped)
        if section or unit:
            if section:
                name = re.sub(r"^(ERROR|FAILED|FAIL) (at (setup|teardown|call) of|collecting) ", "", section.group(1))
                module = ""
            else:
                name, where = unit.group(2), (unit.group(3) or "")
                klass = where.removesuffix("." + name).rsplit(".", 1)[-1] if where else ""
                module = where.removesuffix("." + name).rpartition(".")[0] if klass and klass != name else ""
                name = f"{klass}.{name}" if klass and klass != name else name
                if unit.group(4):  # a subTest's parameters: "[case=3]" or "(rate=0.5)"
                    name += "[" + unit.group(4)[1:-1] + "]"
            block = _Block(name)
            block.item.module = module
            blocks.append(block)
            in_python_tb = False
            continue
        if block is None:
            if stripped.startswith("Traceback (most recent call last)"):
                block = _Block("")  # a bare traceback (a collection error, a script)
                blocks.append(block)
            else:
                continue
        if stripped.startswith("Traceback (most recent call last)"):
            in_python_tb = True
            continue
        if stripped.startswith("During handling of the above exception") or stripped.startswith(
                "The above exception was the direct cause"):
            block.chain()  # the chained exception that follows is the one the test saw
            continue
        if block.doctest and block.doctest_line(stripped):
            continue
        if stripped.startswith("-" * 20) or stripped.startswith("Ran ") and " test" in stripped:
            block = None if stripped.startswith("Ran ") else block
            continue
        code_match = _CODE_LINE.match(stripped)
        if code_match:
            block.pending_code.append(code_match.group(1))
            block.expect_source = False
            continue
        e_match = _E_LINE.match(stripped)
        if e_match:
            text = e_match.group(1).strip()
            name = _exception_name(text, qualified=not block.messages)
            if name and not block.item.error_type:
                block.item.error_type = name
            block.add_message(text)
            block.expect_source = False
            continue
        loc = _TRACE_LOC.match(stripped.strip()) or _PY_TRACE.match(stripped)
        if loc:
            function = loc.group(3)
            block.frame(loc.group(1), function, files)
            if loc.re is _TRACE_LOC and loc.group(4) and not block.item.error_type:
                name = _exception_name(loc.group(4))  # "app/m.py:12: ValueError" ends a long traceback
                block.item.error_type = name or block.item.error_type
            continue
        if block.expect_source and stripped.startswith(" ") and stripped.strip():
            if not _CARETS.match(stripped) and not block.source_is_library:
                if in_python_tb or not stripped.strip().startswith(("def ", "@")):
                    block.add_code(stripped)
            block.expect_source = False
            continue
        if in_python_tb and stripped and not stripped.startswith(" "):
            exc = _EXC_LINE.match(stripped)
            if exc and not block.messages and (_exception_name(stripped) or exc.group(2) is not None):
                block.item.error_type = exc.group(1)
                block.add_message(stripped)
                in_python_tb, block.after_exception = False, True
                continue
        if block.after_exception:
            if stripped and not _CARETS.match(stripped):
                block.add_message(stripped)  # unittest's diff lines after "AssertionError: 'a' != 'b'"
            else:
                block.after_exception = False

    items = [b.finish() for b in blocks]
    failing = _failing_ids(summary, items)
    _fill_from_summary(summary, items)
    items = [i for i in items if i.error_type or i.message or i.code]
    first = items[0] if items else None
    error_type = first.error_type if first else ""
    message = first.message if first else ""
    if not error_type:
        for _, text, cut in summary:
            name = _exception_name(text)
            if name and not (cut and text.endswith(name)):
                error_type = name
                break
    if not message and not failing:
        tail = [ln for ln in output.strip().splitlines() if ln.strip()][-3:]
        message = " | ".join(tail)[:MAX_MESSAGE_CHARS]
    code = _dedupe([c for i in items for c in i.code])[:MAX_CODE_LINES]
    frames = _dedupe([f for i in items for f in i.frames])
    return Failure(error_type or "Error", failing, message, files, code, frames,
                   [asdict(i) for i in items[:MAX_FAILURES]])


def _failing_ids(summary: list[tuple[str, str, bool]], items: list[FailureItem]) -> list[str]:
    """Full node ids from the summary when whole, else the section's name (never a cut id)."""
    ids = [tid for tid, _, cut in summary
           if not tid.endswith("::") and not (cut and items and not _complete_id(tid, items))]
    for item in items:
        if item.test and not any(_same_test(tid, item.test) for tid in ids):
            ids.append(item.test)
    return _dedupe(ids)


def _complete_id(test_id: str, items: list[FailureItem]) -> bool:
    return any(_same_test(test_id, i.test) for i in items if i.test)


def _same_test(node_id: str, name: str) -> bool:
    """Does a node id (``tests/t.py::TestA::test_b[1]``) name the section ``TestA.test_b[1]``?"""
    return node_id.replace("::", ".").endswith(name) or node_id.split("::")[-1] == name


def _fill_from_summary(summary: list[tuple[str, str, bool]], items: list[FailureItem]) -> None:
    """A run shown with ``--tb=no`` or ``-rf`` only has summary lines: one item per line."""
    if items:
        return
    for test_id, text, cut in summary:
        name = _exception_name(text)
        if not name and text.startswith("assert"):
            name = "AssertionError"  # --tb=line / -rf print a failed assert without the error's name
        items.append(FailureItem(test=test_id, error_type=name if not (cut and text.endswith(name)) else "",
                                 message=text[:MAX_MESSAGE_CHARS], truncated=cut))


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _humanise(test_id: str) -> str:
    """``tests/t.py::TestA::test_rounds_half[2.5-3]`` -> ``rounds half [2.5-3]``: words plus the parameters.
    The parameters are the test's own text: a ``::`` in them is not the id's separator, and a ``;`` in them
    is written ``,`` (``;`` separates the tests of the ``failing tests:`` line; outside round 7 case 04)."""
    params = ""
    path_end = test_id.find(".py::")  # the module's path may hold a "[", the test's names never do
    start = test_id.find("[", path_end + len(".py::") if path_end >= 0 else 0)
    if start > 0 and test_id.endswith("]"):
        params, test_id = f" [{test_id[start + 1:-1].replace(';', ',')}]", test_id[:start]
    name = test_id.split("::")[-1]
    if name.endswith(".py"):  # a module (a collection error): its file name
        name = re.split(r"[/\\]", name)[-1][:-3]
    name = name.rsplit(".", 1)[-1]
    if name.startswith("test_"):
        name = name[5:]
    elif name.startswith("test"):
        name = name[4:]
    return name.replace("_", " ").strip() + params


def own_message(failure: Failure | FailureItem | str) -> str:
    """The failure's message without pytest's assertion introspection.

    An exception's own words ("can't compare offset-naive and offset-aware datetimes", an
    assert's explicit message) describe the behaviour. pytest's rewritten assertion ("assert
    'audit-log' == 'audit_log'" and the explanation lines after it) is the failing line again
    with one project's values substituted: those are kept apart, in ``assertion_values``.
    """
    text = failure if isinstance(failure, str) else failure.message
    kept, in_introspection = [], False
    for piece in (p.strip() for p in text.split(" | ")):
        if _INTROSPECTION.match(piece):
            in_introspection = True
            continue
        if in_introspection and not _EXC_NAME.match(piece):
            continue  # "At index 1 diff: ...", "Left contains one more item", ... belong to the assert
        in_introspection = False
        if piece:
            kept.append(piece)
    return " | ".join(kept)


def assertion_values(message: str) -> list[str]:
    """What an assertion compared: the rewritten ``assert a == b`` and pytest's difference lines."""
    values, in_introspection = [], False
    for piece in (p.strip() for p in message.split(" | ")):
        if _INTROSPECTION.match(piece):
            in_introspection = True
            values.append(re.sub(r"^AssertionError:\s*", "", piece))
        elif in_introspection and not _EXC_NAME.match(piece):
            values.append(re.sub(r"^\+\s+where ", "where ", piece))  # "where False = f('x')": the call
        else:
            in_introspection = False
    return [v for v in values if v not in _EMPTY_ASSERTS and not v.endswith(":")][:MAX_VALUES]


def _head(error_type: str, message: str) -> str:
    if not message:
        return error_type
    return message if message.startswith(error_type) else f"{error_type}: {message}"


FAILING_TESTS_LABEL = "failing tests: "  # the line of a symptom (symptom_query) that names the failing tests
FRAMES_LABEL = "in: "  # the line that names the project's functions the tracebacks went through


PARAMETERS = re.compile(r"\s*\[.*$")  # a parametrized test's case, from its first "[" (testrun ``_humanise``)


def _listed(symptom: str, label: str, separator: str) -> frozenset[str]:
    """The items of the line of a ``symptom_query`` text that starts with ``label``; empty without one."""
    for line in (symptom or "").splitlines():
        if line.startswith(label):
            return frozenset(item.strip() for item in line[len(label):].split(separator) if item.strip())
    return frozenset()


def failing_test_names(symptom: str) -> frozenset[str]:
    """The failing tests a symptom written by ``symptom_query`` names (as words, ``"ceil basic"``), without
    their parameters (``"parse valid date [2014-02]"`` is the test ``"parse valid date"``: another case of
    the same test); empty for a text without that line (a model's own query, a record stored without it)."""
    return frozenset(name for name in (PARAMETERS.sub("", n).strip() for n in _listed(symptom, FAILING_TESTS_LABEL, ";"))
                     if name)


def test_name(test_id: str) -> str:
    """A failing test's name in words without its parameters, as ``failing_test_names`` reads it."""
    return PARAMETERS.sub("", _humanise(test_id)).strip()


def failing_tests(symptom: str, learned: Iterable[str] = ()) -> FailingTests:
    """The failing tests a symptom names (``failing_test_names``) with the ids it knows them by: its
    ``failing test ids:`` line, else ``learned`` (a learned fix's ``learned_from.tests``, for a record
    stored before the line existed). Two are the same test by ``same_ids.same_tests``."""
    cases: dict[str, set[str]] = {}
    for written in _listed(symptom, FAILING_TESTS_LABEL, ";"):
        cases.setdefault(PARAMETERS.sub("", written).strip(), set()).add(written.strip())
    return FailingTests(failing_test_names(symptom), listed_ids(symptom) or list(learned), humanise=test_name,
                        cases={name: frozenset(found) for name, found in cases.items()})


def _test_ids(failure: Failure, named: set[str], room: int) -> str:
    """The ``failing test ids:`` line (testrun/same_ids.py): pytest's own ids where observe read them,
    the output's ids, and a unittest test's module (``pkg.tests::TestA::test_x``); "" for none or
    where it would make the symptom longer than a record holds (``room`` characters left)."""
    unittest = [f"{i['module']}::{PARAMETERS.sub('', i['test']).replace('.', '::')}"
                for i in failure.failures if i.get("module") and i.get("test")]
    line = test_ids_line([*failure.failing_ids, *failure.failing_tests, *unittest], named, test_name)
    return line if len(line) < room else ""


def traceback_functions(symptom: str) -> frozenset[str]:
    """The project's functions a symptom written by ``symptom_query`` says the tracebacks went through
    (its ``in:`` line); empty without one."""
    return _listed(symptom, FRAMES_LABEL, ",")


def symptom_query(failure: Failure) -> str:
    """The memory query for a failure: each distinct error with its own message, the failing tests'
    names in words (with their parameters), the failing lines of code, the values compared, and
    the project's non-test functions the tracebacks went through.

    Test names are written as words ("second origin gets allow origin header") because they
    describe the expected behaviour in the project's own vocabulary, which is what a fix from
    another project most often shares. The failing lines (``assert parse_tags("a, b") == [...]``)
    say which behaviour was exercised with which input. File paths are left out: they are
    project-specific. Measured with ``astra-memory bench retrieval`` (docs/results.md).
    """
    items = [FailureItem(**i) for i in failure.failures] or [
        FailureItem(error_type=failure.error_type, message=failure.message, code=failure.failing_code)]
    heads: list[str] = []
    values: list[str] = []
    differences: list[str] = []  # how compared values differ, in general words (testrun/mismatch.py)
    causes: list[str] = []  # a chained exception's earlier ones: often the more telling
    for item in items:
        head = _head(item.error_type or failure.error_type, own_message(item))
        if head and head not in heads:
            heads.append(head)
        causes = _dedupe(causes + [c for c in item.causes if c not in heads])
        for value in assertion_values(item.message):
            if value not in values and len(values) < MAX_VALUES:
                values.append(value)
        lines = [*assertion_values(item.message), *item.message.split(" | ")[:2]]
        found = [w for line in lines for w in describe_line(line)] or describe_literals(own_message(item))
        differences = _dedupe(differences + found)
    parts = heads[:3]
    if causes:
        parts.append("caused by: " + "; ".join(causes[:MAX_CAUSES]))
    if failure.failing_tests:
        names = "; ".join(_dedupe([_humanise(t) for t in failure.failing_tests[:MAX_FAILURES]]))
        parts.append(f"{FAILING_TESTS_LABEL}{names}")
    if failure.failing_code:
        parts.append("failing code: " + "; ".join(failure.failing_code[:MAX_CODE_LINES]))
    if values:
        parts.append("compared: " + "; ".join(values))
    if differences:
        parts.append("values " + "; ".join(differences[:MAX_VALUES]))
    if failure.frames:
        parts.append(FRAMES_LABEL + ", ".join(failure.frames[:MAX_CODE_LINES]))
    text = "\n".join(p for p in parts if p)
    if failure.failing_tests:  # the ids the names came from, on a line never embedded (testrun/same_ids.py)
        named = {test_name(t) for t in failure.failing_tests[:MAX_FAILURES]}
        ids = _test_ids(failure, named, MAX_SYMPTOM_CHARS - len(text))
        text += f"\n{ids}" if ids else ""
    return text
