"""The gates as pure functions, on hand-built state."""

from langchain_core.messages import AIMessage

from astra_memory.rules.gates import fix_confirmed, workspace_passed
from astra_memory.rules.routing import (
    route_after_confirm,
    route_after_investigate,
    route_after_observe,
    route_after_step,
    route_after_test,
)


def ai(name: str, **args) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "c1", "type": "tool_call"}])


DELIVERED = {"memory": {"delivered": True, "hits": []}}


def test_observe_routes_failures_to_memory_search_and_ends_otherwise():
    assert route_after_observe({}) == "memory_search"
    assert route_after_observe({"status": "nothing_to_fix"}) == "report"


def test_no_edit_or_finish_before_memory_is_delivered():
    for name in ("apply_edit", "finish"):
        assert route_after_investigate({"messages": [ai(name)]}) == "tools"  # refused there
        assert route_after_investigate({"messages": [ai(name)], "memory": {"delivered": False}}) == "tools"


def test_investigate_routes_by_the_first_tool_call():
    diagnosed = {**DELIVERED, "diagnosis": {"delivered": True, "hits": []}}  # the diagnosis gate: test_diagnosis_gate.py
    assert route_after_investigate({**diagnosed, "messages": [ai("apply_edit")]}) == "edit"
    assert route_after_investigate({**DELIVERED, "messages": [ai("finish")]}) == "test"
    assert route_after_investigate({**DELIVERED, "messages": [ai("read_file")]}) == "tools"
    assert route_after_investigate({**DELIVERED, "messages": [AIMessage(content="hi")]}) == "tools"
    assert route_after_investigate({**DELIVERED, "status": "budget_exhausted", "messages": []}) == "report"


def test_steps_return_to_investigate_until_a_status_is_set():
    assert route_after_step({}) == "investigate"
    assert route_after_step({"status": "failed"}) == "report"


PASS = {"passed": True, "outcome": "pytest passed with exit code 0 (4 passed)", "edits_seen": 1}


def test_confirm_only_after_a_passing_run_with_no_later_edit():
    confirmed = {"test_runs": [PASS], "edits": [{}], "passed_outcome": PASS["outcome"]}
    assert workspace_passed(confirmed) and route_after_test(confirmed) == "confirm"
    after_edit = {**confirmed, "edits": [{}, {}]}
    assert not workspace_passed(after_edit) and route_after_test(after_edit) == "investigate"
    invented = {**confirmed, "passed_outcome": "pytest passed with exit code 0 (99 passed)"}
    assert route_after_test(invented) == "investigate"
    failing = {"test_runs": [{**PASS, "passed": False}], "edits": [{}], "passed_outcome": None}
    assert route_after_test(failing) == "investigate"
    assert route_after_test({**failing, "status": "failed"}) == "report"


FRESH = {"passed": True, "outcome": PASS["outcome"], "confirms": PASS["outcome"], "edits_seen": 1}


def test_store_only_after_the_fresh_copy_passed_for_the_same_edits():
    confirmed = {"test_runs": [PASS], "edits": [{}], "passed_outcome": PASS["outcome"], "confirm": FRESH}
    assert fix_confirmed(confirmed) and route_after_confirm(confirmed) == "store"
    assert route_after_confirm({**confirmed, "confirm": None}) == "report"
    assert route_after_confirm({**confirmed, "confirm": {**FRESH, "passed": False}}) == "report"
    assert route_after_confirm({**confirmed, "confirm": {**FRESH, "outcome": ""}}) == "report"
    # a confirm result for other edits, or for another passing run, confirms nothing
    assert route_after_confirm({**confirmed, "confirm": {**FRESH, "edits_seen": 0}}) == "report"
    assert route_after_confirm({**confirmed, "confirm": {**FRESH, "confirms": "pytest passed (9 passed)"}}) == "report"
    # and a passing confirm result never outlives an edit after the workspace run
    assert route_after_confirm({**confirmed, "edits": [{}, {}]}) == "report"
