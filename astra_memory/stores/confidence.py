"""Which hits of a symptom search have the evidence to be shown: the rest are never shown, and a search
left with none says "no confident match" (stores/format.py ``NO_RESULTS``).

Why (issue 35 item 3; bench history, docs/results.md): on real histories every query with nothing
relevant in memory was still shown fixes, all of other projects, at cosines 0.3-0.5 (real pytest
output looks alike: ``AssertionError``, ``assert x == y``, ``NoneType``); the fused floor and margin
(stores/hybrid.py) cannot tell them from a right one, whose score is in the same range. What the
relevant fixes had and those lacked is *evidence*: a fix of the same project for one of the same
failing tests, or whose failure went through one of the project's functions this one went through
(the ``in:`` lines of both symptoms, testrun/symptoms.py), a later bug in the same function.

The rule: a hit is confident when it is a fix of the query's project (confirmed by this installation
there: an imported record's word for its project is no evidence) with such evidence, or when its
cosine is at least ``MIN_COSINE_WITHOUT_EVIDENCE`` (a match by meaning alone must be strong: another
project's fix, a search for no project, a record stored without test names). A search whose query
names no failing test (the model's own search, a person's ``memory search`` with a few words) cannot
have evidence: the cosine rule alone applies there too. The diagnosis search (``against="cause"``)
is not gated here: it matches causes without the project's names (stores/mechanism.py) and has its
own cut-off (stores/hybrid.py).
"""

from __future__ import annotations

import re
from typing import Any

from astra_memory.context import DEFAULT_MIN_FUSED_SCORE
from astra_memory.stores.evidence import counted
from astra_memory.testrun.symptoms import failing_test_names, traceback_functions

# The cosine a hit without evidence needs to be shown: this far above the fused floor (stores/hybrid.py,
# the user's ASTRA_MIN_FUSED_SCORE; a floor of 0 or below shows every rank, and then no hit is held back
# here either). Chosen on the development data only (scripts/confidence_choice.py): the value that
# answers most queries right (a relevant fix shown where there is one, nothing shown where there is
# none) over bench history's development projects (inflection, parse, xmltodict, iso8601, tomli) and
# bench retrieval's dev and dev-extra sets together; figures in docs/results.md ("Hits that explain
# themselves, or none").
WITHOUT_EVIDENCE_OFFSET = 0.15
MIN_COSINE_WITHOUT_EVIDENCE = DEFAULT_MIN_FUSED_SCORE + WITHOUT_EVIDENCE_OFFSET  # 0.50 at the default floor

# What the model and a person read where nothing has the evidence (stores/format.py, the progress line).
NO_CONFIDENT_MATCH = "no confident match: no fix shown"
SAME_TEST = "this project's fix for the same failing test"
SAME_FUNCTION = "this project's fix whose failure went through the same function"
CHANGED_FUNCTION = "this project's fix of a function this failure went through"
STRONG_MEANING = "a strong match by meaning"
# The functions a diff changes, as far as the diff alone says: the ``def`` named in a hunk's header (git's
# enclosing-function line) and every ``def`` line in a hunk. Dunder names (``__init__``) are every class's.
HUNK_DEF = re.compile(r"^@@[^@]*@@\s*(?:async\s+)?def\s+([A-Za-z_]\w*)", re.M)
DEF_LINE = re.compile(r"^[ +-]\s*(?:async\s+)?def\s+([A-Za-z_]\w*)", re.M)


def changed_functions(diff: str) -> frozenset[str]:
    """The names of the functions ``diff`` changes (see ``HUNK_DEF``), dunder names left out."""
    names = set(HUNK_DEF.findall(diff or "")) | set(DEF_LINE.findall(diff or ""))
    return frozenset(n for n in names if not (n.startswith("__") and n.endswith("__")))


def frame_names(functions: frozenset[str]) -> frozenset[str]:
    """The function names of traceback frames written ``module.function`` (testrun/symptoms.py)."""
    return frozenset(f.rsplit(".", 1)[-1] for f in functions)


def min_cosine_without_evidence(floor: float) -> float:
    """The cosine a hit without evidence needs at the fused ``floor`` (none at a floor of 0 or below)."""
    return floor + WITHOUT_EVIDENCE_OFFSET if floor > 0 else float("-inf")


def evidence(value: dict[str, Any], cosine: float, project_id: str | None, failing: frozenset[str],
             functions: frozenset[str], min_cosine: float = MIN_COSINE_WITHOUT_EVIDENCE) -> str:
    """Why the stored fix ``value`` may be shown for a failure whose query names the ``failing`` tests
    and the traceback ``functions`` (``""``: no evidence, not shown)."""
    if confirmed_in(value, project_id) and (tie := project_tie(value, failing, functions)):
        return tie
    return STRONG_MEANING if min_cosine != float("-inf") and cosine >= min_cosine else ""


def confirmed_in(value: dict[str, Any], project_id: str | None) -> bool:
    """Whether the stored fix ``value`` is this project's: stored for ``project_id`` *and* confirmed by this
    installation there (a confirmation that is evidence, stores/evidence.py ``counted``). A record only a
    file vouches for (``memory import``: every confirmation imported) is another installation's word for
    its project, and is shown only on a strong match by meaning (outside round 7 case 02)."""
    if not project_id or value.get("project_id") != project_id:
        return False
    return int(value.get("confirmations_dropped") or 0) > 0 or any(
        counted(c, project_id) for c in value.get("confirmations") or [])


def project_tie(value: dict[str, Any], failing: frozenset[str], functions: frozenset[str]) -> str:
    """What ties the stored fix ``value`` of this project to a failure naming the ``failing`` tests and the
    traceback ``functions``: the same test, the same function, a function its diff changed; or "". The
    recurrence rule (stores/recurrence.py) keeps a project's fix on the same ties."""
    symptom = str(value.get("symptom") or "")
    if failing and failing_test_names(symptom) & failing:
        return SAME_TEST
    if functions and traceback_functions(symptom) & functions:
        return SAME_FUNCTION
    if functions and changed_functions(str(value.get("diff") or "")) & frame_names(functions):
        return CHANGED_FUNCTION
    return ""
