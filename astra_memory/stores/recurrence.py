"""Which of a project's own fixes the symptom search may show: those for the same failing tests.

Why: every fix of a project shares the project's names with every failure of that project: module
and function names, paths in the traceback, the words of its test names. On real test output those
shared names outweigh the kind of bug, so the symptom search's best hits for a new bug were the same
project's fixes of *other* bugs (docs/results.md: in 22 of 29 queries of real output from 14
libraries, such a fix was ranked first, and none of the hits the search showed was right). What tells
a recurrence from another bug of the same project is not the names but the tests: a bug that comes
back makes the same tests fail again.

The rule: in a symptom search for a project, a fix stored for that same project is a candidate only
if its symptom names at least one of the failing tests the query names (both written by
``testrun.symptoms.symptom_query``), or if its failure's traceback went through one of the project's
functions this failure's went through (their ``in:`` lines), or if its diff changed one of the functions
this failure went through (stores/confidence.py ``changed_functions``): a later bug in the same function
makes other tests fail (bench history, docs/results.md). Fixes of other projects are untouched, and so is a search whose
query names no tests (the model's own search) or whose record names none (stored without them), and a
failure whose traceback went through none of the project's functions (no ``in:`` line: the assertion
failed in the test itself, as most of a real history's do) or only through a bare module (``in: schema``:
pytest's location line without a function; read as a function, it left out a relevant fix of the same
function for 6 of 29 queries of bench history's four seen kept-apart projects): there the rule cannot tell, and keeps the
fix, which then needs evidence or a strong match by meaning to be shown (stores/confidence.py). A
parametrized test's cases are one test, and two tests of one name in two modules are two (the same test
id up to its parameters, where both symptoms know it: testrun/same_ids.py). The diagnosis search is untouched: it matches causes without
the project's names (stores/mechanism.py).
"""

from __future__ import annotations

from typing import Any

from astra_memory.stores.confidence import function_frames, project_tie
from astra_memory.testrun.symptoms import failing_test_names


def another_bug_of_the_project(value: dict[str, Any], project_id: str | None, failing: frozenset[str],
                               functions: frozenset[str] = frozenset()) -> bool:
    """True when the stored fix ``value`` is for the project ``project_id`` (its repository,
    workspace/identity.py; never a folder name), was for none of the ``failing`` tests, and this
    failure went through some of the project's ``functions``, none of which its failure's traceback
    went through or its diff changed (a later bug in the same function makes other tests fail: bench
    history, docs/results.md)."""
    if not project_id or not failing or value.get("project_id") != project_id:
        return False
    if not function_frames(functions) or not failing_test_names(str(value.get("symptom") or "")):
        # the rule cannot tell: its record names no test, or this failure no function of the project (a bare
        # module frame, pytest's location line without a function, names none: stores/confidence.py)
        return False
    return not project_tie(value, failing, functions)  # not the same test, function, or a function its fix changed
