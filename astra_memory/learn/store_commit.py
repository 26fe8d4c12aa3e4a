"""Store a commit ``confirm_commit`` confirmed, through the path a session's store node uses
(``FixMemory.store_fix_memory``, nodes/store.py), and find the commits already learned.

The record: the failing run's real output as its symptom (testrun/symptoms.py, as observe and store
build one), the commit's source diff only (its tests left out) byte for byte as git wrote it, the
commit's message as its description and as its diagnosis' cause, the commit's tests that failed, and
where it came from (``LearnedFrom``: commit, parent, author date, the project's identity from
workspace/identity.py). Its confirmation is this installation's, in this project (``project_id``), by
per-test results: a learned fix replays for a recurring bug like any fix a session confirmed here
(stores/trust.py).

The same commit is one record however often it is learned: ``learned`` finds it by its commit (and
project) before anything runs, and a store repeated after a crash is the same record with the same
confirmation (the id is over the content and the project's identity, not its folder's name; a
confirmation counts once per session, and its session is the commit's, ``learn-<commit id>``: two
learns of one commit at once, or a learn in a clone of the repository, add no second one).
"""

from __future__ import annotations

from datetime import datetime

from astra_memory.learn.confirm_commit import Verdict
from astra_memory.learn.history import Commit
from astra_memory.stores.lifecycle import supersede_earlier
from astra_memory.stores.memory import FixMemory
from astra_memory.stores.record import FixRecord
from astra_memory.testrun.symptoms import parse_failure, symptom_query

LEARNED_MODEL = "none (learned from the project's git history)"
MAX_DESCRIPTION = 4_000
MAX_CAUSE = 2_000


def learned(memory: FixMemory, project_id: str) -> dict[str, FixRecord]:
    """The fixes already learned in the project ``project_id`` *by this installation*, by commit id: a
    record counts only with a confirmation of its own commit's learn session made here (not imported)
    in this project. An imported record that names a commit (``learned_from`` is the file's word)
    never makes a learn skip that commit: the commit is judged here and stored as what it is."""
    found = {}
    for record in memory.iter_records():
        origin = record.learned_from
        if origin is None or origin.repository != project_id:
            continue
        session = f"learn-{origin.commit[:40]}"
        if any(c.session_id == session and not c.imported and c.project_id == project_id
               for c in record.confirmations):
            found[origin.commit] = record
    return found


def confirmation_session(commit: Commit) -> str:
    """The confirmation's session: the commit's (``learn-<commit id>``)."""
    return f"learn-{commit.sha[:40]}"


def store_learned(memory: FixMemory, commit: Commit, verdict: Verdict, *, message: str, source_diff: str,
                  project: str, project_id: str, thread_id: str | None = None) -> FixRecord:
    """Store the confirmed ``commit`` (``verdict.verdict == "confirmed"``) as a fix of the project;
    ``thread_id``: the learn's thread (default: the commit's session), kept in its confirmation."""
    if verdict.verdict != "confirmed":
        raise ValueError(f"commit {commit.sha[:12]} was not confirmed ({verdict.verdict}): nothing to store")
    failure = parse_failure(verdict.failing_output)
    failure.failing_ids = list(verdict.failing_tests)
    error_type = failure.error_type or "AssertionError"
    text = message.strip() or commit.subject
    session = confirmation_session(commit)
    record = memory.store_fix_memory(
        fix_description=text[:MAX_DESCRIPTION],
        error_type=error_type,
        file_paths=list(commit.source_files),
        outcome=verdict.outcome,
        confirmed_outcome=verdict.outcome,  # verbatim, from the run with the fix
        symptom=symptom_query(failure),
        diff=source_diff,
        session_id=session,
        thread_id=thread_id or session,
        project=project,
        project_id=project_id,
        model=LEARNED_MODEL,
        kind="fix",
        diagnosis={"error_type": error_type, "cause": " ".join(text.split())[:MAX_CAUSE],
                   "files": list(commit.source_files)},
        learned_from={"commit": commit.sha, "parent": commit.parent,
                      "author_date": datetime.fromisoformat(commit.author_date), "repository": project_id,
                      "tests": list(verdict.failing_tests)},
    )
    if len(record.confirmations) == 1:  # as the store node: a fix stored first replaces earlier ones on its lines
        supersede_earlier(memory, record)
    return record
