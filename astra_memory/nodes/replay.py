"""replay: before any model request, try the confirmed fixes memory returned for this failure.

For each hit that may be tried here (rules/replay_candidates.py: an active record with a diff,
its files in this workspace, a match of at least REPLAY_MIN_SCORE; every other hit is named with
why it was skipped), best first: if the diff applies exactly (hunks may sit at other
line offsets; see patch.plan_patch) and the project's tests then pass, the bug is fixed with
no model request. The edits and the passing run go into state exactly as the edit and test nodes
would write them, so the confirmed-fix gate holds and `store` adds this session as a ``replay``
confirmation. A diff that does not apply writes nothing; one whose tests still fail is undone
byte for byte. With no model configured (a workspace run: scripted model, no script) and nothing
replayed, the session ends here with what was tried and how to choose a model.

Who decides (stores/trust.py): a fix confirmed here, in this project (or in two projects), whose
diff does not special-case the test runner, is replayed unasked. Any other (imported, another
project's, a runner check) only with a human's yes. Whether a human is there to ask is the session's
``approve_edits`` (the CLI sets it only with a terminal on both ends, or with --approve-edits;
scripts and Studio say so in the task): without one the replay is skipped, and its result says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from astra_memory.context import Context, setting_name
from astra_memory.crash import crash_point
from astra_memory.errors import WorkspaceError
from astra_memory.events import emit
from astra_memory.models.advice import needs_model_advice
from astra_memory.models.factory import model_name
from astra_memory.nodes.common import context_of, fix_memory, private_step, workspace_of
from astra_memory.rules.approval import ask, replay_request
from astra_memory.rules.gates import require_memory
from astra_memory.rules.replay_candidates import passed_over_lines, why_not_replayed
from astra_memory.rules.runner_checks import runner_checks
from astra_memory.state import (
    AgentState,
    ApprovalInfo,
    FixInfo,
    ReplayAttempt,
    ReplayInfo,
    edit_info,
    run_record,
)
from astra_memory.stores.record import FixRecord
from astra_memory.stores.trust import replay_trust
from astra_memory.testrun.results import observed
from astra_memory.testrun.run import run_tests
from astra_memory.workspace import patch
from astra_memory.workspace.line_ends import unified_diff


def candidates(state: AgentState, runtime: Runtime[Context], workspace) -> tuple[list[FixRecord], list[ReplayAttempt]]:
    """The delivered hits replay may try, in the order shown, and those it passes over with why
    (rules/replay_candidates.py: active, with a diff, its files here, a strong match)."""
    memory, records, passed_over = fix_memory(runtime), [], []
    for hit in (state.get("memory") or {}).get("hits") or []:
        record = memory.get(hit["memory_id"])
        why = "it is no longer in memory" if record is None else why_not_replayed(record, hit["score"], workspace)
        if why:
            passed_over.append(ReplayAttempt(memory_id=hit["memory_id"], result=why))
        else:
            records.append(record)
    return records, passed_over


def no_model(state: AgentState, context: Context) -> bool:
    """No model can take the next turn: the scripted one without a script, unless the calling agent
    takes it (``editor``: client; astra_memory/mcp_server/)."""
    task = state["task"]
    return model_name(task, context) == "scripted" and not task.get("script") and task.get("editor") != "client"


def replay(state: AgentState, runtime: Runtime[Context]) -> dict:
    require_memory(state, "replay")
    context, task = context_of(runtime), state["task"]
    workspace = workspace_of(state)
    journal_dir = Path(task["run_dir"]) / "replay" if task.get("run_dir") else None
    undone = patch.recover(workspace, journal_dir)  # a crash mid-replay: back to the untouched files
    if undone:
        emit(task.get("run_dir"), "replay_recovered", memory_ids=undone)
    info = ReplayInfo(tried=[], passed_over=[], replayed=None, skipped=None)
    update: dict = {"replay": info}
    records, info["passed_over"] = candidates(state, runtime, workspace) if context.replay else ([], [])
    for passed in info["passed_over"]:  # the session's events: why each hit was not tried
        emit(task.get("run_dir"), "replay_skipped", memory_id=passed["memory_id"], reason=passed["result"])
    if not context.replay:
        info["skipped"] = f"switched off: {setting_name('replay')}"
    elif not records:
        info["skipped"] = "none of memory's hits can be replayed here" if info["passed_over"] else \
            "memory returned no confirmed fix"
    runs: list = []
    # A session whose edits wait for a human's yes has no stored diff applied unasked: the first
    # diff that applies is put to the human (interrupt), and only that one is tried. Everything
    # before the question only reads, so a resume asks again and nothing is applied twice.
    human = bool(task.get("approve_edits"))  # someone answers approval requests in this session
    skipped_for_trust, approvals = [], []
    for record in records:
        trust = replay_trust(record, project_id=task.get("project_id", ""),
                             runner_checks=[c.describe() for c in runner_checks(record.diff)])
        attempt = _try(state, context, workspace, journal_dir, record, ask=human, why=trust.needs_approval)
        info["tried"].append(ReplayAttempt(memory_id=record.memory_id, result=attempt.result))
        emit(task.get("run_dir"), "replay", memory_id=record.memory_id, result=attempt.result)
        if attempt.skipped:
            skipped_for_trust.append(f"{record.memory_id}: {'; '.join(trust.needs_approval)}")
        if attempt.approval is not None:
            approvals.append(attempt.approval)
            update["approvals"] = approvals
        if attempt.run is not None:
            runs.append(attempt.run)
        if attempt.asked and not attempt.edits:
            break  # the human saw one replay; the rest is the model's work
        if attempt.edits:  # fixed: the edits and the passing run, as edit and test would record them
            info["replayed"] = record.memory_id
            update.update(
                edits=[edit_info(e) for e in attempt.edits],
                test_runs=runs,
                budget={"test_runs": len(runs)},
                passed_outcome=attempt.run["outcome"],
                fix=FixInfo(fix_description=record.fix_description, error_type=record.error_type),
            )
            return update
    if skipped_for_trust:  # on screen (the replay line) and in the report: why nothing ran
        info["skipped"] = ("not replayed without a human's approval, and no one answers approvals in this session "
                           "(CLI: --approve-edits on a terminal; Studio and scripts: the approve_edits setting): " + " | ".join(skipped_for_trust))
    if runs:
        update.update(test_runs=runs, budget={"test_runs": len(runs)})
    if no_model(state, context):
        tried = "; ".join([f"{a['memory_id']}: {a['result']}" for a in info["tried"]]
                          + passed_over_lines(info)) or info["skipped"] or "nothing"
        update.update(status="needs_model", reason=(
            f"no confirmed fix from memory fixed this failure (tried: {tried}), and " + needs_model_advice(task)))
    return update


@dataclass
class Attempt:
    result: str  # "fixed", "does not apply: ...", "tests still fail: ..."
    run: Any = None  # the RunRecord of its test run, if it got that far
    edits: list = field(default_factory=list)  # the applied EditRecords, only when fixed
    asked: bool = False  # a human was asked to approve it
    approval: ApprovalInfo | None = None  # the human's answer, kept in state["approvals"]
    skipped: bool = False  # it applies, but needs a human's approval and no one is asked


REPLAY_APPROVAL_PREFIX = "replay:"  # state["approvals"] entry of a replay: tool_call_id "replay:<memory id>"


def approved(record: FixRecord, patches: list[patch.FilePatch], why: list[str] = ()) -> tuple[bool, str]:
    """Ask the human (interrupt) whether to replay ``record``'s diff here: (yes?, reason if not)."""
    diff = "".join(unified_diff(p.path, p.before, p.after) for p in patches)
    request = replay_request(memory_id=record.memory_id, path=", ".join(p.path for p in patches), diff=diff,
                             why=list(why))
    answer = ask(request)  # approve or reject: a stored diff is replayed as it is, or not at all
    return answer.action == "approve", answer.reason.strip() or "no reason given"


def _try(state: AgentState, context: Context, workspace, journal_dir: Path | None, record: FixRecord,
         *, ask: bool = False, why: list[str] = ()) -> Attempt:
    """One stored diff on the workspace. Unless it fixed the bug, the workspace is left as it was."""
    task, before = state["task"], len(state.get("edits") or [])
    try:
        patches = patch.plan_patch(workspace, record.diff)
    except patch.ReplayRefused as exc:
        return Attempt(f"does not apply: {exc}")
    if not patches:
        return Attempt("does not apply: the diff changes nothing here")
    if why and not ask:  # it would apply; only a human may let it run here, and no one is asked
        return Attempt("skipped: replaying it needs a human's approval (" + "; ".join(why)
                       + "), and no one answers approvals in this session (CLI: --approve-edits on a terminal; Studio and scripts: the approve_edits setting)",
                       skipped=True)
    approval = None
    if ask:
        yes, reason = approved(record, patches, why)
        paths = ", ".join(p.path for p in patches)
        approval = ApprovalInfo(tool_call_id=REPLAY_APPROVAL_PREFIX + record.memory_id, path=paths,
                                decision="approve" if yes else "reject", reason="" if yes else reason)
        emit(task.get("run_dir"), "approval", path=paths, memory_id=record.memory_id,
             decision="approve" if yes else "reject", reason="" if yes else reason)
        if not yes:
            return Attempt(f"rejected by the human reviewer: {reason}", asked=True, approval=approval)
    journal = patch.begin(workspace, record.memory_id, patches, journal_dir)  # before any write
    try:
        edits = patch.apply(workspace, patches)
    except WorkspaceError as exc:
        patch.restore(workspace, journal)
        return Attempt(f"does not apply: {exc}", approval=approval)
    crash_point("replay:applied")
    run = run_tests(task["workspace"], task["test_command"], timeout_s=context.test_timeout_s,
                    env=task.get("test_env"), baseline=observed(state),  # a pass by observe's failing test ids
                    **private_step(task))
    if run.passed:
        journal.state = "applied"
        journal.save()
        return Attempt("fixed", run_record(run, phase="replay", edits_seen=before + len(edits)), edits, asked=ask,
                       approval=approval)
    patch.restore(workspace, journal)
    return Attempt(f"tests still fail: {run.outcome}", run_record(run, phase="replay", edits_seen=before), asked=ask,
                   approval=approval)
