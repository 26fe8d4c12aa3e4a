"""Parametrized test ids that change from run to run, matched by test function and parameter position.

Pytest builds a parametrized test's id from its parameter values; a value whose text depends on
the process (an ``object()`` repr, an ``id()``, the order of a set holding ``None``, whose hash
varies per process in Python 3.11 even with ``PYTHONHASHSEED=0``) gives ids that differ between
two runs of the same, unchanged tests. Judged by id alone, a correct fix of such a test is "not
run now". So each collected item also has a *slot* (our pytest plugin records it): its test
function's node id, the indices of its parameters and a digest of their values as they are in
every process (``tests/t.py::test_f#value=2~3f9a...``: an object's attributes, not its address).

Ids are translated by slot when, and only when, the instability is shown on unchanged code: the
function's ids differed between observe's two collections (testrun/second_collection.py, which
says so in the outcome), and they differ between observe's run and the run judged. Ids that
differ only after the session's edits are the edits' doing (a case of the source's data swapped
for another), never translated: such a test is not run now. A slot matches only the same values
at the same position, so a swapped case is not the test that failed at observe either. A function
whose ids are the same is judged by id, even if its slots moved. The outcome names every function
matched this way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

SEPARATOR = "#"


def function_of(slot: str) -> str:
    """The test function's node id of a slot (``tests/t.py::test_f#value=2`` -> ``tests/t.py::test_f``)."""
    return slot.rpartition(SEPARATOR)[0]


def ids_by_function(slots: Mapping[str, str]) -> dict[str, set[str]]:
    """Each parametrized function's ids, from ``{id: slot}``."""
    found: dict[str, set[str]] = {}
    for test_id, slot in slots.items():
        found.setdefault(function_of(slot), set()).add(test_id)
    return found


def differing_functions(first: Mapping[str, str], second: Mapping[str, str]) -> list[str]:
    """The functions, in both collections, whose ids differ between them (``{id: slot}`` each)."""
    one, two = ids_by_function(first), ids_by_function(second)
    return sorted(f for f in one.keys() & two.keys() if one[f] != two[f])


def translate(tests: Mapping[str, str], now_slots: Mapping[str, str], observed_slots: Mapping[str, str],
              unstable_at_observe: Iterable[str] = ()) -> tuple[dict[str, str], list[str]]:
    """``tests`` (id -> outcome of the run judged) with the ids of every function whose ids differ from
    observe's renamed to observe's id of the same slot; and the outcome's note naming them."""
    shown = set(unstable_at_observe)
    functions = [f for f in differing_functions(observed_slots, now_slots) if f in shown]
    if not functions:
        return dict(tests), []
    wanted = set(functions)
    observed_by_slot = {slot: test_id for test_id, slot in observed_slots.items() if function_of(slot) in wanted}
    renamed = {test_id: observed_by_slot[slot] for test_id, slot in now_slots.items()
               if slot in observed_by_slot and observed_by_slot[slot] != test_id}
    translated: dict[str, str] = {}
    for test_id, outcome in tests.items():
        translated[renamed.get(test_id, test_id)] = outcome
    where = [f"{f} (also between observe's two collections)" for f in functions]
    note = (f"parametrized ids that differ between runs matched by test function and parameter position "
            f"({len(renamed)} tests): {', '.join(where[:3])}" + (f" and {len(where) - 3} more" if len(where) > 3 else ""))
    return translated, [note]
