"""Whether two failures name the same failing test: the same test id up to its parameters.

A symptom (``testrun.symptoms.symptom_query``) names its failing tests in words (``failing tests:
empty``): the words a fix of another project may share, which is why they are embedded. Words alone
cannot tell two tests of one name in two modules apart (``tests/test_strs.py::test_empty`` and
``tests/test_ints.py::test_empty``: outside round 7, case 08), so the symptom also carries the ids
the words came from, on a line of their own (``failing test ids:``), without their parameters (a
parametrized test's cases are one test). That line is never embedded nor matched word for word
(``searched_text``): what the vector and BM25 see is the symptom as it was before the line existed,
so no search's scores changed; the line is read only where "the same failing test" is claimed
(stores/confidence.py ``project_tie``, which the recurrence rule and the ranking read, and the
``why:`` line, stores/why.py).

The rule (``same_tests``): a test both failures name in words is the same test unless both know its
module and no id of one is the id of the other: the same class and function, and the same module
path, or an absolute one ending with the other (another rootdir: ``/home/u/proj/tests/test_x.py`` and
``tests/test_x.py``); two relative paths must be equal (``sub/tests/test_x.py`` is another module than
``tests/test_x.py``: outside round 8, case 03). A unittest id (``FAIL: test_x (pkg.tests.TestA)``) is written
``pkg.tests::TestA::test_x`` and compared the same way (``pkg/tests.py`` is that module). Where a side
knows no module (a symptom stored before the line existed, a section name with no id, words a person
typed), its names are compared as words, as before: never a weaker claim than before, and the
module's own evidence wherever both sides have it. A learned fix stored before the line names its
commit's test ids (``learned_from.tests``): those stand in for the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

TEST_IDS_LABEL = "failing test ids: "  # the symptom's line of failing test ids (never embedded)
MAX_ID_CHARS = 300  # a longer id is left out of the line (its test is then compared by its words)
MAX_IDS_CHARS = 800  # the whole line: a symptom is at most 4,000 characters (stores/record.py)


@dataclass(frozen=True)
class TestId:
    """A test's id without its parameters: its module's parts (``("tests", "test_x")``) and its names
    in the module (``("TestA", "test_b")``)."""

    __test__ = False  # not a pytest class
    module: tuple[str, ...]
    names: tuple[str, ...]
    absolute: bool = False  # the module was named by an absolute path (``/home/u/proj/tests/test_x.py``)

    def same(self, other: TestId) -> bool:
        """The same test: the same class and function, and the same module path, or an absolute one that
        ends with the other's (another rootdir). Two relative paths must be equal: within one project a
        leading part is a package (``sub/tests/test_x.py`` is not ``tests/test_x.py``: outside round 8, case 03)."""
        if self.names != other.names:
            return False
        if self.module == other.module:
            return True
        short, long = sorted((self, other), key=lambda t: len(t.module))
        return long.absolute and not short.absolute and long.module[len(long.module) - len(short.module):] == short.module


def without_parameters(test_id: str) -> str:
    """``tests/t.py::test_a[1-2]`` -> ``tests/t.py::test_a``: the parameters start at the first ``[`` after
    the module's path (a path may hold a ``[``, a test's names never do)."""
    path_end = test_id.find(".py::")
    start = test_id.find("[", path_end + len(".py::") if path_end >= 0 else 0)
    return test_id[:start] if start > 0 else test_id


def parse_test_id(text: str) -> TestId | None:
    """The id ``path/mod.py::Class::test`` or ``pkg.mod::Class::test`` (a unittest one), parameters left
    out; None for a name with no module (``TestA.test_b``, a section name)."""
    text = without_parameters(text.strip())
    module, sep, rest = text.partition("::")
    if not sep or not module or not rest:
        return None
    absolute = False
    if module.endswith(".py"):
        parts = [p for p in re.split(r"[/\\]", module[:-3]) if p and p not in (".", "..") and not p.endswith(":")]
        absolute = module.startswith(("/", "\\")) or re.match(r"[A-Za-z]:[/\\]", module) is not None
    else:
        parts = [p for p in module.split(".") if p]
    names = tuple(n for n in rest.split("::") if n)
    return TestId(tuple(parts), names, absolute) if parts and names else None


def test_ids_line(ids: Iterable[str], named: set[str], humanise) -> str:
    """The ``failing test ids:`` line of a symptom: each of ``ids`` that has a module and whose name in
    words (``humanise``, parameters left out) is one of ``named``, once, without its parameters; "" for none.
    Bounded: an id with ``;`` (the separator) or a line break, or longer than ``MAX_ID_CHARS``, is left out."""
    kept: list[str] = []
    for test_id in ids:
        bare = without_parameters(test_id.strip())
        if (not bare or bare in kept or len(bare) > MAX_ID_CHARS or any(c in bare for c in ";\n\r")
                or parse_test_id(bare) is None or humanise(bare) not in named):
            continue
        if len(TEST_IDS_LABEL) + len("; ".join([*kept, bare])) > MAX_IDS_CHARS:
            break
        kept.append(bare)
    return TEST_IDS_LABEL + "; ".join(kept) if kept else ""


def searched_text(symptom: str) -> str:
    """The symptom as the vector and BM25 see it: without its ``failing test ids:`` line."""
    if TEST_IDS_LABEL not in (symptom or ""):
        return symptom
    return "\n".join(line for line in symptom.split("\n") if not line.startswith(TEST_IDS_LABEL))


def listed_ids(symptom: str) -> list[str]:
    """The ids a symptom's ``failing test ids:`` line holds (none without one)."""
    for line in (symptom or "").splitlines():
        if line.startswith(TEST_IDS_LABEL):
            return [i.strip() for i in line[len(TEST_IDS_LABEL):].split(";") if i.strip()]
    return []


class FailingTests(frozenset):
    """The failing tests a symptom names in words (a frozenset of names, as ``failing_test_names``) and,
    by name, the ids it knows them by (``ids``: name -> TestIds)."""

    ids: dict[str, tuple[TestId, ...]]
    cases: dict[str, frozenset[str]]

    def __new__(cls, names: Iterable[str], ids: Iterable[str] = (), humanise=None,
                cases: dict[str, frozenset[str]] | None = None):
        self = super().__new__(cls, names)
        self.cases = dict(cases or {})
        by_name: dict[str, list[TestId]] = {}
        for text in ids:
            parsed = parse_test_id(text)
            name = humanise(without_parameters(text.strip())) if parsed and humanise else ""
            if parsed and name in self:
                by_name.setdefault(name, []).append(parsed)
        self.ids = {name: tuple(found) for name, found in by_name.items()}
        return self


def same_tests(failing: frozenset[str], other: frozenset[str]) -> frozenset[str]:
    """The tests both ``failing`` and ``other`` name that are the same test (module docstring): a name both
    hold, unless both know ids for it and none of one's is the same test as one of the other's."""
    mine = failing.ids if isinstance(failing, FailingTests) else {}
    theirs = other.ids if isinstance(other, FailingTests) else {}
    return frozenset(name for name in failing & other
                     if not (mine.get(name) and theirs.get(name))
                     or any(a.same(b) for a in mine[name] for b in theirs[name]))
