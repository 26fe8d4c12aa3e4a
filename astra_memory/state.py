"""The graph's state, and the typed shapes that the nodes and the gates share.

Counters live here so that a resumed thread keeps them. Each shape that a gate reads (a test run,
the memory result, an edit) is built by one function below, so the node that writes it and the
gate that reads it cannot drift apart by a key.

``typing_extensions.TypedDict`` (not ``typing``'s): pydantic, and so LangGraph's schema export for
Studio, needs it on Python < 3.12.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import NotRequired, TypedDict

from astra_memory.redact import scrub

# unconfirmed: the tests passed in the workspace but not in the fresh copy (confirm); cannot_run: the test
# command could not run the tests (observe); needs_model: a model turn with no model to play it.
# "error": a node raised an unexpected exception (a bug of ours; the pending step is kept and `resume` retries
# it); "cancelled": stopped on purpose (`astra-memory cancel`, Ctrl-C twice; `resume --uncancel` continues it).
# Neither is written into the checkpoint (that would move the pending step): session/run.py reports them.
Status = Literal["fixed", "failed", "nothing_to_fix", "budget_exhausted", "unconfirmed", "cannot_run", "needs_model",
                 "error", "cancelled"]
RunPhase = Literal["observe", "replay", "test"]  # which node ran it (the fresh-copy run is state["confirm"])


# The shape of the state and of the rules that read it. 2: the renamed gates and fields (passed_outcome,
# phase "test"), pytest's own results, the diagnosis gate. A thread started under another version is not
# resumed (session/run.py refuse_earlier_version): its checkpoint holds what this code reads otherwise.
STATE_VERSION = 2


def add_counts(current: dict[str, float] | None, delta: dict[str, float] | None) -> dict[str, float]:
    """Budgets only grow: each node returns what it spent, and it is added to the total."""
    total = dict(current or {})
    for key, value in (delta or {}).items():
        total[key] = total.get(key, 0) + value
    return total


class Budget(TypedDict, total=False):
    """What a session has spent; every key only grows."""

    model_requests: float
    tool_calls: float
    test_runs: float
    input_tokens: float
    output_tokens: float
    cost_usd: float


class Task(TypedDict, total=False):
    """What to fix and where; set once at the start of a session."""

    workspace: str  # absolute path of the project copy the agent works in
    test_command: str  # e.g. "python -m pytest -q tests", run without a shell
    prompt: str  # the user's description of the problem
    project: str  # the project's folder (or scenario's) name: for display only
    project_id: str  # what the project is (workspace/identity.py): trust, recurrence, ranking, attempts
    scenario: str | None  # bundled scenario name, if any
    script: list[dict[str, Any]] | None  # the scripted model's turns (scenario solution)
    model: str  # "scripted" or e.g. "openai:gpt-4.1-mini"
    protected: list[str]  # workspace paths the agent may not edit (the acceptance tests)
    test_env: dict[str, str]  # extra environment for the test command: the scenario's, or (--workspace) the
    # invoking shell's PATH and VIRTUAL_ENV (testrun/run.py project_environment)
    python: str | None  # --workspace: the project's interpreter picked (--python, or the workspace's .venv)
    run_dir: str  # where events, edit journals and evidence of this session go
    session_id: str  # = thread id
    knobs: dict[str, Any]  # the run knobs the session keeps across resume (context.recorded_knobs)
    approve_edits: bool  # a human approves each edit before it is applied (nodes/approve.py)
    state_version: int  # STATE_VERSION of the code that started the session (stamped by prepare)
    # "client": the calling agent edits (astra-memory mcp, astra_memory/mcp_server/): its turns are the
    # script, written by finish_fix from its change to the workspace; no model of ours is needed
    editor: str
    fix_memory: str  # Studio: which fix memory the run uses, said in its first update (graph/studio.py)


class RunRecord(TypedDict):
    """One run of the project's test command, as the gates read it."""

    command: str
    exit_code: int
    passed: bool
    counts: dict[str, int]
    output: str
    duration_s: float
    timed_out: bool
    outcome: str  # the exact outcome string a passing run confirms
    phase: RunPhase
    edits_seen: int  # how many edits had been applied when the run started
    # "pytest": ``passed`` means pytest's per-test results show every test that failed at observe now
    # passing by id, nothing failing, at least one pass (testrun/results.py); "exit_code": a command
    # that is not pytest, judged by its exit code only (weaker evidence, said so in ``outcome``).
    evidence: NotRequired[str]
    tests: NotRequired[dict[str, str]]  # test id -> outcome: every test at observe, later the non-passing ones
    results_complete: NotRequired[bool]  # pytest finished and its results were read whole
    findings: NotRequired[list[str]]  # why the run is not a pass (empty when it is)
    environment_changes: NotRequired[list[str]]  # paths of the test environment changed since observe
    environment: NotRequired[dict[str, Any]]  # observe only: the environment held still (manifest.Environment)
    # not a pass, and not judged a failure: observe's parametrized ids not run now and not matched by
    # position (testrun/id_slots.py); such a run is not a failed attempt
    inconclusive: NotRequired[str | None]
    slots: NotRequired[dict[str, str]]  # observe only: parametrized id -> function and parameter position
    doctests: NotRequired[dict[str, str]]  # observe only: doctest id -> digest of its examples as collected
    unstable_ids: NotRequired[list[str]]  # observe only: functions whose ids differed between two collections


class FailureInfo(TypedDict):
    """What the failing run showed (symptoms.Failure as data)."""

    error_type: str
    failing_tests: list[str]
    message: str
    files: list[str]
    failing_code: list[str]
    frames: NotRequired[list[str]]  # the project's non-test functions in the tracebacks
    failures: NotRequired[list[dict]]  # one entry per failing test (symptoms.FailureItem as data)
    failing_ids: NotRequired[list[str]]  # the failing test ids by pytest's own results (what must pass)


class MemoryHitInfo(TypedDict):
    memory_id: str
    score: float
    session_id: str
    project: str
    evidence: NotRequired[str]  # what a symptom search's hit was shown on (stores/confidence.py)


class AttemptHitInfo(TypedDict):
    """A failed attempt delivered beside the fixes (stores/attempts.py): labelled, never a fix."""

    kind: Literal["attempt"]
    attempt_id: str
    same_failure: bool  # same project and failing tests (else: a similar symptom above a strict score)
    score: float | None
    end: str  # tests_failed / not_confirmed / not_stored
    outcome: str
    times_tried: int


class MemoryResult(TypedDict):
    """The mandatory memory search: what was asked, what came back, and that it was delivered."""

    query: str
    hits: list[MemoryHitInfo]
    text: str  # what the model was shown
    delivered: bool  # an empty result counts as delivered
    attempts: NotRequired[list[AttemptHitInfo]]  # failed attempts shown beside the fixes (first search only)
    damaged_skipped: NotRequired[int]  # damaged rows in memory the search skipped (FixMemory.damaged)


class RepeatRefused(TypedDict):
    """An apply_edit refused because it would make exactly a change already recorded as failing."""

    tool_call_id: str
    attempt_id: str
    path: str


class DiagnosisResult(TypedDict):
    """The diagnosis search (nodes/diagnosis_search.py): the model's stated diagnosis, the memory search
    made with it, and that its result was delivered. What the edge into ``edit`` requires."""

    error_type: str
    cause: str
    files: list[str]
    query: str  # what memory was searched with ("<error_type>: <cause>")
    hits: list[MemoryHitInfo]
    text: str  # what the model was shown
    delivered: bool  # an empty result counts as delivered


class EditInfo(TypedDict):
    """One applied edit (workspace.EditRecord as data)."""

    path: str
    before_sha256: str
    after_sha256: str
    diff: str
    # the diff held text that looks like a secret, and ``diff`` is scrubbed: it is not what was
    # written, so its record is stored not replayable (nodes/store.py)
    diff_scrubbed: NotRequired[bool]


class ConfirmResult(TypedDict):
    """The confirm node's re-run of the tests in a fresh copy of the pre-session project with only
    the session's source edits applied; what store requires, and whose outcome it stores."""

    passed: bool
    outcome: str  # the fresh copy's exact outcome string ("" when the copy could not be built)
    exit_code: int | None
    counts: dict[str, int]
    output_tail: str
    confirms: str  # the workspace run's outcome (state["passed_outcome"]) this result confirms
    edits_seen: int  # how many edits were applied to the fresh copy
    files: list[str]  # the workspace-relative files written over the snapshot
    reason: str  # why it did not confirm ("" when it did)
    duration_s: float  # the fresh copy's test run (0.0 when it did not run; absent in older checkpoints)


class FixInfo(TypedDict):
    """The model's finish(): its account of the fix."""

    fix_description: str
    error_type: str


class SpendInfo(TypedDict, total=False):
    """The session's spend so far, after its latest model turn: the budget's totals (a live model's from
    the cost ledger) and, for a live model, the session's limit. Watchers read it in the updates, where
    ``budget`` carries only what each step added."""

    model_requests: float
    input_tokens: float
    output_tokens: float
    cost_usd: float
    session_budget_usd: float  # a live model's per-session limit
    # Requests whose outcome the ledger never heard (a process killed mid-request), counted in cost_usd
    # at their worst case: how many, and that worst case (the report node reads them from the ledger).
    open_requests: int
    open_usd: float


class ApprovalInfo(TypedDict):
    """A human's answer to one proposed edit (nodes/approve.py)."""

    tool_call_id: str  # the server's id of the call (shown; may repeat), or "replay:<memory id>" (nodes/replay.py)
    # the call it answers (nodes/common.py call_key: its place in the thread and a hash of what it asks; for
    # "edit", of the reviewer's version); what edit and store match, never tool_call_id. Absent for a replay.
    call_key: NotRequired[str]
    path: str
    decision: Literal["approve", "reject", "edit"]
    reason: str


class ReplayAttempt(TypedDict):
    memory_id: str
    result: str  # "fixed", or why not: "does not apply: ...", "tests still fail: ..."


class ReplayInfo(TypedDict):
    """The replay node: which stored fixes it tried on this workspace, and the one that fixed it."""

    tried: list[ReplayAttempt]
    passed_over: list[ReplayAttempt]  # hits not tried, ``result`` saying why (rules/replay_candidates.py)
    replayed: str | None  # memory id of the replayed fix, when one fixed the bug
    skipped: str | None  # why nothing was tried (switched off, no fix with a diff)


class AgentState(TypedDict, total=False):
    task: Task
    messages: Annotated[list[AnyMessage], add_messages]  # the model conversation
    test_runs: Annotated[list[RunRecord], operator.add]  # every test run: exit code, counts, outcome
    failure: FailureInfo | None  # observed failure: error type, failing tests, message, files
    memory: MemoryResult | None  # query, hits, rendered text, delivered flag
    diagnosis: DiagnosisResult | None  # the latest diagnosis search: the edit gate requires it delivered
    edits: Annotated[list[EditInfo], operator.add]  # path, before/after sha256, unified diff
    passed_outcome: str | None  # set by a passing test run, cleared by any edit
    fix: FixInfo | None  # the model's finish(): fix description and error type
    pristine: str | None  # the snapshot of the project taken before the first test run (observe)
    confirm: ConfirmResult | None  # the fresh-copy re-run that store requires (nodes/confirm.py)
    stored_memory_id: str | None
    replay: ReplayInfo | None  # what the replay node tried (nodes/replay.py)
    budget: Annotated[Budget, add_counts]  # model requests, tool calls, tokens, spend
    spend: SpendInfo | None  # the totals so far, in each model turn's update (for watching a run)
    attempts: int  # test runs after a finish()
    invalid_turns: int  # model turns whose tool calls were refused
    status: Status | None  # the named end of the run
    reason: str | None  # why the run ended the way it did
    last_node: str
    approvals: Annotated[list[ApprovalInfo], operator.add]  # every answer to an approval request
    attempt_records: Annotated[list[str], operator.add]  # ids of the failed attempts this session recorded
    repeats_refused: Annotated[list[RepeatRefused], operator.add]  # edits refused as exact repetitions


class InputState(TypedDict):
    """What a session starts from (the graph's input schema: LangGraph Studio builds its form from it).

    ``{"task": {"scenario": "alpha"}}`` or ``{"task": {"workspace": "/abs/path", "test_command": "..."}}``;
    the ``prepare`` node fills in the rest (astra_memory/tasks.py).
    """

    task: Task


def run_record(run: Any, *, phase: RunPhase, edits_seen: int) -> RunRecord:
    """A testrun.TestRun as the state keeps it (observe and test both build it here); its output
    scrubbed of secrets, as everything checkpointed."""
    record = RunRecord(command=run.command, exit_code=run.exit_code, passed=run.passed, counts=dict(run.counts),
                       output=scrub(run.output), duration_s=run.duration_s, timed_out=run.timed_out,
                       outcome=run.outcome, phase=phase, edits_seen=edits_seen)
    for key in ("evidence", "tests", "results_complete", "findings", "environment_changes", "inconclusive"):
        if hasattr(run, key):
            record[key] = getattr(run, key)
    return record


def edit_info(record: Any) -> EditInfo:
    """A workspace.EditRecord as the state keeps it (the diff scrubbed; the hashes are of the real file)."""
    diff = scrub(record.diff)
    return EditInfo(path=record.path, before_sha256=record.before_sha256, after_sha256=record.after_sha256,
                    diff=diff, **({"diff_scrubbed": True} if diff != record.diff else {}))


def memory_result(query: str, hits: list[Any], text: str) -> MemoryResult:
    """The delivered result of a memory search (stores.memory.MemoryHit list)."""
    return MemoryResult(query=query, text=text, delivered=True, hits=[
        MemoryHitInfo(memory_id=h.record.memory_id, score=round(h.score, 4), session_id=h.record.session_id,
                      project=h.record.project, **({"evidence": h.evidence} if getattr(h, "evidence", None) else {}))
        for h in hits])


def attempt_hit_info(hit: Any) -> AttemptHitInfo:
    """A delivered failed attempt (stores.attempts.AttemptHit) as the state keeps it."""
    r = hit.record
    return AttemptHitInfo(kind="attempt", attempt_id=r.attempt_id, same_failure=hit.same_failure,
                          score=None if hit.score is None else round(hit.score, 4), end=r.end,
                          outcome=r.outcome, times_tried=r.times_tried)
