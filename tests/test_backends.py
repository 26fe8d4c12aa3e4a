"""The memory backends (astra_memory/backends/): one interface, asked, never guessed from a type.

- ``stores/`` (the memory's rules) imports no backend, and no module outside ``backends/`` tells the
  backends apart by type (``isinstance`` of a store class, ``type(...).__name__``, a kind string);
- the Actian VectorAI DB store's record lock holds across processes (a file lock in the data folder:
  backends/actian/store.py). Its server runs only in Docker, absent here: the lock needs no server
  and is tested for real; the store's operations are not (tests/test_actian.py, when a server is set);
- a target goes to the backend that claims it (backends/open.py ``MEMORY_OPENERS``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import time

import pytest

from astra_memory.backends.actian.store import ActianStore, lock_file
from astra_memory.backends.open import MEMORY_OPENERS, memory_opener
from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.locks import records_lock
from tests.conftest import ROOT

PACKAGE = ROOT / "astra_memory"
STORE_CLASSES = {"SqliteStore", "PostgresStore", "ActianStore", "MatrixSqliteStore", "SqliteMemoryStore",
                 "PostgresMemoryStore", "InMemoryStore"}


def _modules(folder):
    return [(path, ast.parse(path.read_text(encoding="utf-8"))) for path in sorted(folder.rglob("*.py"))]


def test_stores_import_no_backend():
    found = []
    for path, tree in _modules(PACKAGE / "stores"):
        for node in ast.walk(tree):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n.startswith("astra_memory.backends")]
    assert found == []


def _type_checks(tree) -> list[tuple[int, str]]:
    """isinstance(x, <store class>), type(x).__name__ compared, and ``kind`` compared with a backend's name."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            named = {getattr(c, "id", None) or getattr(c, "attr", None) for c in classes}
            if named & STORE_CLASSES:
                found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Compare):
            text = ast.unparse(node)
            if "__name__" in text and "Store" in text:
                found.append((node.lineno, text))
            if ".kind" in text and any(word in text for word in ("'sqlite'", "'postgres'", "vectorai", "actian")):
                found.append((node.lineno, text))
    return found


def test_no_backend_type_check_outside_backends():
    found = [f"{path.relative_to(ROOT)}:{line} {text}" for path, tree in _modules(PACKAGE)
             if "backends" not in path.relative_to(PACKAGE).parts for line, text in _type_checks(tree)]
    assert found == []


def test_the_type_check_finder_finds_the_checks_it_forbids():
    """The finder above is not blind: the checks this change removed are found (stores/locks.py before)."""
    before = ast.parse('if isinstance(store, SqliteStore): pass\nif type(store).__name__ == "PostgresStore": pass\n'
                       'if backend.kind == "postgres": pass\nif "vectorai" in backend.kind: pass\n')
    assert len(_type_checks(before)) == 4


HOLDER = """
import sys, time
from pathlib import Path
from astra_memory.backends.actian.store import ActianStore
from astra_memory.stores.embeddings import HashEmbeddings
from astra_memory.stores.locks import records_lock
store = ActianStore(None, HashEmbeddings(), lock_path=Path(sys.argv[1]))
with records_lock(store, ["00000000-0000-0000-0000-000000000001"]):
    Path(sys.argv[2]).write_text("held")
    time.sleep(float(sys.argv[3]))
"""


def test_the_actian_record_lock_holds_across_processes(tmp_path):
    """A second process asking for a record's lock waits until the holder lets go (no server involved:
    the lock is a file in the data folder; the client is never called)."""
    lock = lock_file(tmp_path, "vectordb.example:50051", "astra_codebase_memory")
    held, hold_s = tmp_path / "held", 2.0
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), str(held), str(hold_s)], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not held.exists():
            assert holder.poll() is None, holder.stderr.read()
            assert time.monotonic() < deadline, "the holder never took the lock"
            time.sleep(0.02)
        started = time.monotonic()
        with records_lock(ActianStore(None, HashEmbeddings(), lock_path=lock), ["00000000-0000-0000-0000-000000000002"]):
            waited = time.monotonic() - started
    finally:
        assert holder.wait(timeout=60) == 0, holder.stderr.read()
    assert waited >= hold_s * 0.5, f"took the lock after {waited:.2f} s while another process held it"
    assert lock.parent == tmp_path and lock.name.startswith("vectorai-vectordb.example_50051-")


@pytest.mark.parametrize(("target", "backend"), [
    ("postgresql://user@db.example/astra", "postgres"),
    ("vectorai://vectordb.example:50051", "actian"),
    ("vectorai://vectordb.example:50051/other_collection", "actian"),
    ("memory.sqlite", "sqlite"),
    ("~/team/memory.sqlite", "sqlite"),
])
def test_each_target_goes_to_the_backend_that_claims_it(target, backend):
    assert memory_opener(target, setting="--to").name == backend


def test_a_target_no_backend_claims_is_refused_with_every_form():
    with pytest.raises(ConfigurationError) as refused:
        memory_opener("mysql://user:secret@db.example/astra", setting="--to")
    message = str(refused.value)
    assert "secret" not in message  # the password is never shown
    assert all(opener.example in message for opener in MEMORY_OPENERS) and len(MEMORY_OPENERS) == 3
