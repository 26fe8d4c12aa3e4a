"""Time secret redaction per MB: the table alone, detect-secrets alone, and both (what ``scrub`` does).

    nice -n 10 .venv/bin/python scripts/bench_scrub.py [--mb 1] [--repeats 5] [--old-redact FILE]

Two inputs of ``--mb`` MB each, built here so that every run reads the same text: ``source`` (this
package's own Python files, as a model's ``read_file`` sees them) and ``test log`` (pytest output:
a passing run's lines, tracebacks, assertion diffs with dict reprs, a few secrets in it). Every
variant runs on the same text in the same process, each ``--repeats`` times; the median is
reported in ms of CPU time per MB (``time.process_time``: on a shared machine wall time measures the
neighbours). ``--old-redact`` also times an older redact.py (for example
``git show main:astra_memory/redact.py > /tmp/old_redact.py``), loaded as its own module: its
``scrub`` is that version's table alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

from astra_memory.redact import scrub_once, scrub_table
from astra_memory.secret_scanner import redact_spans

ROOT = Path(__file__).resolve().parent.parent
MB = 1 << 20
LOG_BLOCK = '''============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-9.2.0, pluggy-1.6.0 -- /usr/bin/python
collecting ... collected 48 items

tests/test_settings.py::test_origins_are_split PASSED                      [  2%]
tests/test_settings.py::test_password_length_is_checked PASSED             [  4%]
tests/test_api.py::test_login[token-expired] FAILED                        [  6%]

=================================== FAILURES ===================================
_________________________ test_login[token-expired] __________________________

client = <FlaskClient <Flask 'app'>>, settings = {'DEBUG': True, 'token_ttl': 30}

    def test_login(client, settings):
        response = client.post("/login", json={"user": "ada", "password": "hunter2-Corr3ct"})
>       assert response.json() == {"ok": True, "token_type": "bearer"}
E       AssertionError: assert {'ok': False, 'error': 'invalid token: expected 3 parts'} == {'ok': True, 'token_type': 'bearer'}
E         Differing items:
E         {'ok': False} != {'ok': True}
E         Full diff:
E         - {'ok': True, 'token_type': 'bearer'}
E         + {'error': 'invalid token: expected 3 parts', 'ok': False}

tests/test_api.py:42: AssertionError
----------------------------- Captured stdout call -----------------------------
GET /health 200 3ms
POST /login 401 12ms headers={'Authorization': 'Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b'}
connecting to postgresql://app:s3cr3t-pw@db.internal:5432/app
=========================== short test summary info ============================
FAILED tests/test_api.py::test_login[token-expired] - AssertionError: assert {'ok': False, ...
========================= 1 failed, 47 passed in 1.92s =========================
'''


def corpus_source(size: int) -> str:
    parts, total = [], 0
    for path in sorted((ROOT / "astra_memory").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        parts.append(text)
        total += len(text)
        if total >= size:
            break
    text = "".join(parts)
    return (text * (size // max(len(text), 1) + 1))[:size]


def corpus_log(size: int) -> str:
    return (LOG_BLOCK * (size // len(LOG_BLOCK) + 1))[:size]


def median_ms_per_mb(fn, text: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.process_time()
        fn(text)
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000 / (len(text) / MB)


def load_old(path: str):
    spec = importlib.util.spec_from_file_location("old_redact", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scrub


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--old-redact", metavar="FILE")
    args = parser.parse_args()
    size = int(args.mb * MB)
    variants = [("table alone", scrub_table), ("detect-secrets alone", lambda t: redact_spans(t, "[REDACTED]")),
                ("detect-secrets + table (scrub)", scrub_once)]
    if args.old_redact:
        variants.insert(0, (f"old table ({Path(args.old_redact).name})", load_old(args.old_redact)))
    print(f"{'input':<10} {'variant':<34} {'CPU ms/MB':>10}")
    for name, text in (("source", corpus_source(size)), ("test log", corpus_log(size))):
        for label, fn in variants:
            print(f"{name:<10} {label:<34} {median_ms_per_mb(fn, text, args.repeats):>10.0f}")


if __name__ == "__main__":
    main()
