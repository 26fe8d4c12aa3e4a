"""The cost ledger's conformance on PostgreSQL.

The ledger tests of tests/test_live_cost.py that take a ``ledger`` fixture are imported here, so
pytest runs the very same test functions again with this module's ``ledger``: a
``PostgresCostLedger`` on a fresh database of the real test server. The process-level guarantees
(a reservation survives SIGKILL, concurrent processes never overspend the total) get their own
PostgreSQL runs below, since the SQLite versions build their ledger from a file path.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

from astra_memory.costs.ledger import BudgetExceededError, CostLedger
from tests.conftest import ROOT
from tests.test_live_cost import (  # noqa: F401  (collected here again, against PostgreSQL)
    test_a_request_that_could_exceed_a_limit_is_refused_and_not_recorded,
    test_reserve_settle_and_report,
    test_state_counters_catch_up_with_the_ledger_and_never_go_down,
)


@pytest.fixture
def ledger_url(pg_url, monkeypatch) -> str:
    monkeypatch.setenv("ASTRA_DATABASE_URL", pg_url)
    return pg_url


@pytest.fixture
def ledger(ledger_url):
    from astra_memory.backends.open import open_cost_ledger
    from astra_memory.settings import Settings

    with open_cost_ledger(Settings()) as opened:
        assert type(opened).__name__ == "PostgresCostLedger" and isinstance(opened, CostLedger)
        yield opened


OPEN = """
from astra_memory.backends.open import open_cost_ledger
from astra_memory.settings import Settings
"""


def _child(code: str, *args: str, url: str) -> subprocess.Popen:
    import os

    env = {**os.environ, "ASTRA_DATABASE_URL": url}
    return subprocess.Popen([sys.executable, "-c", OPEN + textwrap.dedent(code), *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_an_unsettled_reservation_survives_a_killed_process(ledger_url, ledger):
    child = _child("""
        import os, signal
        with open_cost_ledger(Settings()) as ledger:
            ledger.reserve("t1", "r1", 0.04, model="m", session_limit=0.05, total_limit=1.0)
            os.kill(os.getpid(), signal.SIGKILL)
    """, url=ledger_url)
    _, stderr = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, stderr
    usage = ledger.session("t1")
    assert (usage.requests, usage.open_reservations) == (1, 1) and usage.spent_usd == pytest.approx(0.04)
    assert ledger.session_limit("t1") == 0.05
    with pytest.raises(BudgetExceededError):
        ledger.reserve("t1", "r2", 0.02, model="m", session_limit=0.05, total_limit=1.0)


def test_concurrent_processes_never_overspend_the_total(ledger_url, ledger):
    """Four processes race for a $0.25 total in $0.01 reservations: exactly 25 get through."""
    code = """
        import sys
        from astra_memory.costs.ledger import BudgetExceededError
        ok = 0
        with open_cost_ledger(Settings()) as ledger:
            for i in range(15):
                try:
                    ledger.reserve("t" + sys.argv[1], f"r{sys.argv[1]}-{i}", 0.01, model="m",
                                   session_limit=1.0, total_limit=0.25)
                    ok += 1
                except BudgetExceededError:
                    pass
        print(ok)
    """
    children = [_child(code, str(n), url=ledger_url) for n in range(4)]
    outputs = [child.communicate(timeout=180) for child in children]
    assert [c.returncode for c in children] == [0] * 4, [err[-2000:] for _, err in outputs]
    assert sum(int(out) for out, _ in outputs) == 25
    assert ledger.total().requests == 25 and ledger.total().spent_usd == pytest.approx(0.25)
