"""The retrieval case file: JSON lines of records (confirmed fixes) and queries (new failures).

Format (``/work/shared/DESIGN.md``)::

    {"type": "record", "id": "r1", "project": "...", "failure": "<pytest output>", "error_type": "AssertionError",
     "files": ["app/x.py"], "fix": "<fix description>", "outcome": "pytest passed with exit code 0 (4 passed)"}
    {"type": "query", "id": "q1", "project": "...", "failure": "<pytest output>", "error_type": "AssertionError",
     "relevant": ["r1"]}

Optional fields this package adds and reads when present: ``family`` and ``scenario`` (where a
case came from, for the calibration figures), ``diff`` on records (stored like a session stores
it), ``diagnosis`` on records (``{"error_type", "cause", "files"}``: the fixing session's diagnosis,
stored with the fix), and ``exclude`` on queries: records the query must not be ranked against. The shipped file
uses ``exclude`` for a query's own scenario: that scenario's fix is what the query's session is
about to find, so it cannot be in memory yet (leave-one-out); and ``cohort`` on queries (the
scenario's ``cohort``: ``design`` or ``held-out``), by which the bench also splits its metrics.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from astra_memory.errors import AstraError
from astra_memory.json_lines import BadLine, json_line

SHIPPED_CASES = Path(__file__).resolve().parent / "cases" / "corpus.jsonl"
# Development cases written by hand for the noise real suites add (ANSI colour, cut summary
# lines, parametrized ids, two failures in one run, library frames, unittest); not from the blind set.
DEV_EXTRA_CASES = Path(__file__).resolve().parent / "cases" / "dev_extra.jsonl"
# The blind evaluation set lives beside the package in a source checkout (evals/blind/README.md);
# an installed package has no copy, and the bench then reports the development sets only.
BLIND_CASES = Path(__file__).resolve().parents[2] / "evals" / "blind" / "cases.jsonl"
# A second blind set (evals/blind2/README.md), written by another helper kept away from the code and
# every result, committed before any tuning of this session: the one set no retrieval change has seen.
BLIND2_CASES = Path(__file__).resolve().parents[2] / "evals" / "blind2" / "cases.jsonl"


# Diagnoses of the blind sets' queries, one per query id, written by a helper (an LLM) that read only
# each query's test output (evals/diagnoses/README.md): what a model would search with after reading
# the failure, for the bench's second search.
DIAGNOSES = Path(__file__).resolve().parents[2] / "evals" / "diagnoses" / "diagnoses.jsonl"


def default_case_sets() -> dict[str, Path]:
    """The sets ``bench retrieval`` reports side by side: development first, then the blind sets."""
    sets = {"dev": SHIPPED_CASES, "dev-extra": DEV_EXTRA_CASES, "blind": BLIND_CASES, "blind-2": BLIND2_CASES}
    return {name: path for name, path in sets.items() if path.is_file()}


class CaseFileError(AstraError):
    """The case file is missing or a line is not a valid record or query."""


def json_objects(path: Path) -> Iterator[tuple[str, dict]]:
    """``(where, object)`` for every non-blank line of a JSON-lines file; a line that is not a JSON
    object raises CaseFileError naming it (``where`` = ``path:line``)."""
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        where = f"{path}:{number}"
        try:
            data = json_line(raw)
        except BadLine as exc:
            raise CaseFileError(f"{where}: {exc}") from None
        if data is None:
            continue
        yield where, data


def load_diagnoses(path: str | Path | None = None) -> dict[str, str]:
    """``{query id: diagnosis}`` from a JSON-lines file of ``{"id", "diagnosis"}``; {} when absent."""
    path = Path(path) if path else DIAGNOSES
    if not path.is_file():
        return {}
    found: dict[str, str] = {}
    for where, data in json_objects(path):
        if "id" not in data or "diagnosis" not in data:
            raise CaseFileError(f"{where}: expected {{\"id\": ..., \"diagnosis\": ...}}")
        found[str(data["id"])] = str(data["diagnosis"]).strip()
    return found


@dataclass(frozen=True)
class RecordCase:
    id: str
    project: str
    failure: str
    error_type: str
    files: list[str]
    fix: str
    outcome: str
    family: str = ""
    scenario: str = ""
    diff: str = ""
    diagnosis: dict | None = None  # the fixing session's diagnosis {error_type, cause, files}, if the case has one


@dataclass(frozen=True)
class QueryCase:
    id: str
    project: str
    failure: str
    error_type: str
    relevant: list[str]
    family: str = ""
    scenario: str = ""
    exclude: list[str] = field(default_factory=list)
    cohort: str = ""  # e.g. "design" / "held-out": metrics are also reported per cohort


@dataclass(frozen=True)
class CaseSet:
    records: list[RecordCase]
    queries: list[QueryCase]
    source: str


_RECORD_REQUIRED = ("id", "failure", "error_type", "files", "fix", "outcome")
_QUERY_REQUIRED = ("id", "failure")  # "relevant" may be [] (the right answer: show nothing)


def _require(data: dict, keys: tuple[str, ...], where: str) -> None:
    missing = [k for k in keys if data.get(k) in (None, "", [])]
    if missing:
        raise CaseFileError(f"{where}: missing {', '.join(missing)}")


def _record_diagnosis(value, where: str) -> dict | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not str(value.get("cause", "")).strip():
        raise CaseFileError(f"{where}: diagnosis must be an object with a cause (and error_type, files)")
    return {"error_type": str(value.get("error_type") or ""), "cause": str(value["cause"]),
            "files": [str(f) for f in value.get("files") or []]}


def load_cases(path: str | Path) -> CaseSet:
    """Read and validate a case file; every problem names its line."""
    path = Path(path)
    if not path.is_file():
        raise CaseFileError(f"{path} is not a file")
    records: list[RecordCase] = []
    queries: list[QueryCase] = []
    for where, data in json_objects(path):
        kind = data.get("type")
        if kind == "record":
            _require(data, _RECORD_REQUIRED, where)
            if not isinstance(data["files"], list):
                raise CaseFileError(f"{where}: files must be a list")
            records.append(RecordCase(
                id=str(data["id"]), project=str(data.get("project", "")), failure=data["failure"],
                error_type=data["error_type"], files=[str(f) for f in data["files"]], fix=data["fix"],
                outcome=data["outcome"], family=str(data.get("family", "")), scenario=str(data.get("scenario", "")),
                diff=str(data.get("diff", "")), diagnosis=_record_diagnosis(data.get("diagnosis"), where)))
        elif kind == "query":
            _require(data, _QUERY_REQUIRED, where)
            if "relevant" not in data:
                raise CaseFileError(f"{where}: missing relevant (a list of record ids; [] when nothing should be shown)")
            if not isinstance(data["relevant"], list):
                raise CaseFileError(f"{where}: relevant must be a list of record ids")
            queries.append(QueryCase(
                id=str(data["id"]), project=str(data.get("project", "")), failure=data["failure"],
                error_type=str(data.get("error_type", "")), relevant=[str(r) for r in data["relevant"]],
                family=str(data.get("family", "")), scenario=str(data.get("scenario", "")),
                exclude=[str(r) for r in data.get("exclude", [])], cohort=str(data.get("cohort", ""))))
        else:
            raise CaseFileError(f"{where}: type must be 'record' or 'query', got {kind!r}")
    ids = [r.id for r in records]
    if len(set(ids)) != len(ids):
        raise CaseFileError(f"{path}: duplicate record ids")
    known = set(ids)
    for q in queries:
        unknown = [r for r in q.relevant + q.exclude if r not in known]
        if unknown:
            raise CaseFileError(f"{path}: query {q.id} names unknown record(s) {', '.join(unknown)}")
        if set(q.relevant) & set(q.exclude):
            raise CaseFileError(f"{path}: query {q.id} lists a record as both relevant and excluded")
    if not records or not queries:
        raise CaseFileError(f"{path}: needs at least one record and one query")
    return CaseSet(records, queries, str(path))
