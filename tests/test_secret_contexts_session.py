"""A whole session whose failing test output and source carry the eleven forms (issue 32, class 9).

The source holds them, the failing test prints them, the model reads the source and the project's
``.env`` (case 20): none of the values reaches the model, the memory store, events.jsonl,
report.json or the checkpoints, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from astra_memory.redact import REDACTED
from astra_memory.session.run import start_session, workspace_task
from tests.conftest import BACKENDS
from tests.helpers import call, write_project
from tests.test_protected_paths import diagnosed
from tests.test_secret_contexts import DB_PASS, ELEVEN

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)
SECRETS = sorted({row[2] for row in ELEVEN} | {DB_PASS})
CONFIG_PY = "EXAMPLES = '''\n%s\n'''\n\n\ndef retries():\n    return '3'\n" % "\n".join(
    row[1].replace("\\", "\\\\") for row in ELEVEN)
TEST_PY = '''from app.config import EXAMPLES, retries


def test_retries_are_a_number():
    print(EXAMPLES)
    assert retries() == 3, EXAMPLES
'''


def _stored_text(settings, backend: str) -> str:
    """Everything the memory store and the checkpoints hold, as text (bytes as hex too)."""
    if backend == "sqlite":
        raw = b"".join(p.read_bytes() for p in settings.home.glob("*.sqlite*"))  # files and WALs
        return raw.decode("latin-1")
    import psycopg

    rows = []
    with psycopg.connect(settings.database_url) as db:
        tables = db.execute("select table_schema, table_name from information_schema.tables "
                            "where table_schema not in ('pg_catalog', 'information_schema')").fetchall()
        for schema, table in tables:
            rows += [r[0] for r in db.execute(f'select t::text from "{schema}"."{table}" t').fetchall()]
    return "\n".join(rows)


def test_the_eleven_forms_reach_nothing_stored_logged_or_sent(agent, settings, backend, tmp_path):
    project = write_project(tmp_path / "proj", {"app/__init__.py": "", "app/config.py": CONFIG_PY,
                                                "tests/test_config.py": TEST_PY,
                                                ".env": f"DB_HOST=localhost\nDB_PASS={DB_PASS}\n"})
    task = workspace_task(project, "python -m pytest -vv -p no:cacheprovider tests", settings, "secret-contexts")
    task.update(approve_edits=False, script=diagnosed(
        call("read_file", path="app/config.py"),
        call("read_file", path=".env"),
        call("apply_edit", path="app/config.py", old_text="return '3'", new_text="return 3"),
        call("finish", fix_description="retries() gives an int, not a string.", error_type="AssertionError"),
        cause="retries() returns the string '3', not the number 3.", files=("app/config.py",)))
    final = start_session(agent, task)
    assert final["status"] == "fixed", final.get("reason")
    assert "vault login" in final["test_runs"][0]["output"]  # the forms were in the failing output

    sent = [m.content if isinstance(m.content, str) else json.dumps(m.content) for m in final["messages"]]
    env_reads = [text for text in sent if "DB_HOST=localhost" in text]
    assert env_reads and all(f"DB_PASS={REDACTED}" in text for text in env_reads)  # (20) read, redacted
    run_dir = Path(task["run_dir"])
    record = json.dumps(agent.memory.get(final["stored_memory_id"]).model_dump(mode="json"))
    places = {"model": "\n".join(sent), "memory record": record, "stored": _stored_text(settings, backend),
              **{name: (run_dir / name).read_text() for name in ("events.jsonl", "report.json")}}
    for secret in SECRETS:
        for where, text in places.items():
            at = max(text.find(secret), text.find(secret.encode().hex()))
            assert at < 0, (where, secret, text[max(0, at - 300):at + 100])
