"""How compared values differ, in general words (astra_memory/testrun/mismatch.py), and the delivery rule
(stores/hybrid.py: deliverable) and delivered-precision arithmetic of the retrieval bench."""

from __future__ import annotations

from astra_memory.bench.query_cases import QueryCase
from astra_memory.bench.retrieval import delivered_metrics
from astra_memory.stores.hybrid import deliverable
from astra_memory.testrun.mismatch import (
    describe,
    describe_line,
    describe_literals,
    operands,
)


def test_operands_of_pytest_and_unittest_lines():
    assert operands("assert 'a-b' == 'a_b'") == ("a-b", "a_b")
    assert operands("AssertionError: '8' != 8") == ("8", 8)
    assert operands("assert fmt(x) == 'y'") is None  # not a literal: nothing is evaluated
    assert operands("assert [1, ...] == [1, 2]") is None  # pytest's shortened repr


def test_generic_differences():
    assert describe("Audit-Log", "audit-log") == ["differ only in letter case"]
    assert describe("8443\n", "8443") == ["differ only in a trailing newline"]
    assert describe(" x", "x") == ["differ only in leading or trailing whitespace"]
    assert describe("audit-log", "audit_log") == ["differ only in punctuation, separators or accents"]
    assert describe("20", 20) == ["a string compared with a number"]
    assert describe(b"ok", "ok") == ["bytes compared with text"]
    assert describe(None, [1]) == ["None instead of a value"]
    assert describe(3.3000000000000003, 3.3) == ["numbers differ slightly (precision or rounding)"]
    assert describe(5, 4) == ["numbers differ by one"]
    assert describe([2, 1], [1, 2]) == ["same items in a different order"]
    assert describe({"a": "1"}, {"a": 1}) == ["same keys, values differ: a string compared with a number"]
    assert describe(["a", " b"], ["a", "b"]) == ["items differ: differ only in leading or trailing whitespace"]
    assert describe(True, False) == [] and describe("abc", "xyz") == []
    assert describe_line("assert 'Weiss' == 'weiss'") == ["differ only in letter case"]


def test_quoted_literals_in_exception_messages():
    assert describe_literals("KeyError: 'acme\\n'") == ["a value with a trailing newline"]
    assert describe_literals("KeyError: 'SKU-1 '") == ["a value with leading or trailing whitespace"]
    assert describe_literals("KeyError: 'plain'") == []


def test_deliverable_threshold_and_margin():
    scores = [0.62, 0.30, 0.55, 0.10, 0.60]
    assert deliverable(scores, 0.15, 3) == [0, 1, 2]
    assert deliverable(scores, 0.5, 3) == [0, 2, 4]
    assert deliverable(scores, 0.15, 3, margin=0.1) == [0, 2]  # 0.30 is not within 0.1 of 0.62
    assert deliverable(scores, 0.9, 3, margin=0.1) == []


def test_delivered_precision_counts_hits_shown():
    queries = [QueryCase("q1", "", "", "", ["r1"]), QueryCase("q2", "", "", "", ["r2"]), QueryCase("q3", "", "", "", ["r3"])]
    m = delivered_metrics({"q1": ["r1", "r9", "r8"], "q2": ["r7"], "q3": []}, queries)
    assert m == {"precision": 0.25, "nothing_relevant_shown": round(2 / 3, 4), "nothing_shown": round(1 / 3, 4),
                 "recall_shown": round(1 / 3, 4), "shown_per_query": round(4 / 3, 3),
                 "without_relevant": 0, "abstained": 0}  # every query here has a relevant record
