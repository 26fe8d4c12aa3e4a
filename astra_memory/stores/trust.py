"""When a stored fix may be replayed with no one asked, and when a human must say yes first.

Replay applies a stored diff and runs the project's tests with it, with 0 model requests: the
diff's code runs in the test environment before anyone read it. So it is done unasked only for a
fix this installation has reason to trust in this place:

- **confirmed here**: at least one of its confirmations was made by a session of this installation
  (imported ones, ``memory import``, are another installation's word, stores/transfer.py);
- **in this project, or in two**: a fix moves to a project it was not confirmed in unasked only once
  sessions here confirmed it in at least two projects (a human's approved replay into a second project is such a
  confirmation, nodes/store.py); one project's fix may fit another by accident. A project is its
  ``project_id`` (workspace/identity.py: its repository), never its folder name: an untrusted
  checkout named like the user's project is another project. A confirmation from before project ids
  were kept counts for no project, so such a record is another project's fix everywhere;
- **no test-runner special case** in its diff (rules/runner_checks.py);
- **confirmed by per-test results**: a fix whose outcome was judged by a test command's exit code
  alone (not pytest: testrun/results.py says "exit code only" in the outcome) is weaker evidence.

Anything else needs a human's approval (the ``approve_replay`` interrupt). Without one to ask (no
edit approval in the session: scripts, CI, a CLI run with no terminal) the replay is skipped, and
the replay info says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from astra_memory.stores.record import FixRecord
from astra_memory.testrun.results import judged_by_exit_code_only

PROJECTS_TO_TRAVEL = 2  # confirmed in this many projects here: replayed into another one unasked


@dataclass(frozen=True)
class ReplayTrust:
    needs_approval: list[str] = field(default_factory=list)  # why a human must say yes first
    note: str = ""  # why it may replay here, when it is another project's fix (shown on screen)


def _projects(record: FixRecord) -> str:
    names = list(record.projects_confirmed_here.values())
    return ", ".join(names) if names else "none"


def replay_trust(record: FixRecord, *, project_id: str, runner_checks: list[str] = ()) -> ReplayTrust:
    """Whether ``record`` may be replayed unasked in the project ``project_id`` (module docstring)."""
    reasons: list[str] = []
    note = ""
    projects = record.projects_confirmed_here
    legacy = "" if record.project_id else ", stored before a project's identity was kept (by folder name only)"
    if not record.confirmed_here:
        reasons.append(f"its {record.times_imported} confirmation(s) were all imported from another installation; "
                       "none was made here")
    elif not (project_id and project_id in projects) and len(projects) < PROJECTS_TO_TRAVEL:
        reasons.append(f"it is a fix from another project ({record.project or 'unnamed'}{legacy}), confirmed here in "
                       f"{len(projects)} project(s) ({_projects(record)}); a fix is replayed into another "
                       f"project unasked only after confirmations in {PROJECTS_TO_TRAVEL}")
    elif record.project_id != project_id:
        note = (f"a fix from another project ({record.project or 'unnamed'}), confirmed here in "
                f"{len(projects)} project(s): {_projects(record)}")
    if judged_by_exit_code_only(record.outcome):
        reasons.append("its confirmation was judged by the test command's exit code alone (not pytest's per-test "
                       "results): weaker evidence")
    for check in runner_checks:
        reasons.append(f"its diff special-cases the test runner: {check}")
    return ReplayTrust(reasons, note)
