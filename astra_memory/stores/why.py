"""Why a hit was shown: what of this failure it shares, how far it stands above the next, whose it is.

A score alone does not tell a model or a person whether a stored fix is about their bug (issue 35:
"hits that explain themselves"). Each hit gets one line: the evidence it was shown on
(stores/confidence.py), the failing tests both name (as ids, or as the names in words a symptom
holds), the functions of this failure it shares (its traceback went through them, or its diff changed
them), the files of the fix this failure names, the other names and words of the query that the record
also holds (its symptom, fix, cause, files and the functions its diff touches), its score and its
margin over the next hit shown, same project or another, its age and how often this installation
confirmed it. A hit that shares no word is said to match by meaning only. The words are the record's
own text, so they are quoted like every stored value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timezone

from astra_memory.stores.confidence import changed_frames, function_frames, stored_failing_tests
from astra_memory.testrun.same_ids import same_tests, searched_text, without_parameters
from astra_memory.testrun.symptoms import failing_tests, traceback_functions

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
TEST_ID = re.compile(r"[\w./-]+\.py::[\w\[\]./:-]+")
HUNK_FUNCTION = re.compile(r"^@@[^@]*@@\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)", re.M)
MAX_WORDS = 8
# Words every failure and fix share: they say nothing about which bug this is.
STOP = frozenset("""
the and for with not from that this was are but has have had its into than then when which while who what
where why how all any can could did does done each else false true none null one two out own per same such
too use used uses using very will would should must may might also only other some more most less been being
def return assert assertion self cls class import raise raises lambda pass yield async await
test tests testing pytest failed fails failing failure error errors expected got actual value values result
results call called calls line lines file files code function method module argument arguments
fix fixed fixes fixing bug bugs issue case cases check checks now new old instead make makes made get gets set
str int float bool list dict tuple object type types len
""".split())


def words(text: str) -> dict[str, str]:
    """The distinct words of ``text`` worth matching, in order: lower case -> as first written; without
    the common ones."""
    seen: dict[str, str] = {}
    for word in WORD.findall(text or ""):
        low = word.lower()
        if low not in STOP:
            seen.setdefault(low, word)
    return seen


def _record_text(record) -> str:
    cause = record.diagnosis.cause if getattr(record, "diagnosis", None) else ""
    functions = " ".join(HUNK_FUNCTION.findall(record.diff or ""))
    # the symptom as searched (its failing test ids are compared by names_shared, not as words)
    return " ".join([searched_text(record.symptom), record.fix_description, cause or "", " ".join(record.file_paths),
                     functions])


def shared(query: str, record) -> tuple[list[str], list[str]]:
    """(the failing test ids both name, the query's words the record also holds), in the query's order."""
    text = _record_text(record)
    # whole ids up to their parameters: tests/t.py::test_a is not tests/t.py::test_ab
    ids = {without_parameters(t) for t in TEST_ID.findall(text)}
    tests = [t for t in dict.fromkeys(TEST_ID.findall(query or "")) if without_parameters(t) in ids]
    held = words(text)
    return tests, [word for low, word in words(searched_text(query)).items() if low in held][:MAX_WORDS]


def names_file(output: str, path: str) -> bool:
    """Whether ``output`` names the file ``path`` (relative to the project, as pytest prints it, or at
    the end of an absolute path), as a whole name: ``test_parse.py`` does not name ``parse.py``."""
    return re.search(r"(?:^|[\s/\\\"'(])" + re.escape(path) + r"(?=$|[\s:\"'),])", output, re.MULTILINE) is not None


def names_shared(query: str, record) -> tuple[list[str], list[str], list[str]]:
    """(the failing tests both symptoms name in words, the same test ids where both know them, the functions
    of this failure the record's failure went through or its diff changed, the record's files the query
    names), each sorted."""
    stored = stored_failing_tests({"symptom": record.symptom, "learned_from": record.learned_from and
                                   record.learned_from.model_dump()})
    tests = sorted(same_tests(failing_tests(query), stored))  # the same test ids (testrun/same_ids.py)
    frames = function_frames(traceback_functions(query))  # a bare module name is no function (stores/confidence.py)
    through = {f for f in frames if f in traceback_functions(record.symptom)}
    through |= frames & changed_frames(record.diff or "")
    files = [p for p in record.file_paths if p and names_file(query or "", p)]
    return tests, sorted(through), sorted(files)


def _age(timestamp: datetime, now: datetime) -> str:
    days = max(0, (now - timestamp).days)
    return "today" if days == 0 else f"{days} day(s) ago"


def why(hit, query: str, next_rank: float | None, project_id: str | None,
        show: Callable[[object, int], str], now: datetime | None = None) -> str:
    """One line: why this hit was shown. ``next_rank`` is the ranking score of the next hit shown
    (None for the last); ``show`` quotes the record's words (for the model) or prints them plain."""
    record = hit.record
    tests, common = shared(query, record)
    named, functions, files = names_shared(query, record)
    parts = []
    if getattr(hit, "evidence", None):  # what it was shown on (stores/confidence.py)
        parts.append(f"shown as {hit.evidence}")
    if tests:
        parts.append(f"names the failing test(s) {show(tests, 300)}")
    if named:
        parts.append(f"same failing test(s) {show(named, 300)}")
    if functions:
        parts.append(f"same function(s) {show(functions, 300)}")
    if files:
        parts.append(f"its fix changed {show(files, 300)}, named in this failure")
    parts.append(f"shares {show(common, 300)}" if common else "shares no name or word with this failure "
                 "(a match by meaning only)")
    rank = hit.fused if hit.fused is not None else hit.score
    ranked = hit.fused is not None and abs(hit.fused - hit.score) >= 0.00005
    scored = f"score {hit.score:.4f}" + (f", ranked {hit.fused:.4f}" if ranked else "")
    parts.append(scored + (f", {rank - next_rank:+.4f} over the next" if next_rank is not None else
                           ", the last shown"))
    if project_id:
        parts.append("this project" if record.project_id == project_id else "another project")
    parts.append(f"first confirmed {_age(record.timestamp, now or datetime.now(timezone.utc))}, "
                 f"{record.times_confirmed_here} confirmation(s) here")
    return "; ".join(parts)


def next_ranks(hits: Sequence) -> list[float | None]:
    """For each hit, the ranking score of the one shown after it (None for the last)."""
    ranks = [h.fused if h.fused is not None else h.score for h in hits]
    return [*ranks[1:], None]
