"""`astra-memory memory migrate`: move every fix record (and failed attempt), with its id and its stored
vector, between backends.

Either end is a target of any memory backend (backends/open.py ``MEMORY_OPENERS``): a SQLite memory
file, a ``postgresql://`` URL, a ``vectorai://host:port`` (Actian VectorAI DB, unverified without a
server: backends/actian/store.py), so the move works both ways. Each end's store answers
``record_keys`` and ``stored_vectors`` itself (backends/base.py ``MemoryBackend``).

Vectors are copied, not recomputed. The destination is opened with ``CopiedVectors`` as its
embeddings: an ``Embeddings`` object that answers each record's embedded text with the vector read
from the source's own vector table. The destination's own put path (its store's ``batch``)
then writes the record and that vector, so no backend table is written by hand. Only a source
record without a stored vector (one put with ``index=False``) is embedded afresh; the report
counts those (``re_embedded``).

Records are read in key order (``record_keys``: ``SELECT key ... ORDER BY key`` on the SQL backends) and fetched
by key, not paged by ``updated_at`` offsets: a batch import gives many rows one ``updated_at``, and
offset paging over ties is not a stable order on PostgreSQL. Afterwards every source id must be in
the destination with a vector, and the destination count must equal its earlier count plus the
ids it did not have; anything else raises ``MigrationError``. A record the destination already
has is overwritten by the source's copy (same id: the same fix).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from langchain_core.embeddings import Embeddings
from langgraph.store.base import BaseStore, GetOp, PutOp

from astra_memory.backends.base import backend_store
from astra_memory.backends.open import open_memory_store
from astra_memory.db.postgres import redact_url
from astra_memory.errors import AstraError, ConfigurationError
from astra_memory.stores.attempt_record import AttemptRecord, attempts_namespace
from astra_memory.stores.embeddings import DIMS
from astra_memory.stores.memory import FIX_INDEX, NAMESPACE
from astra_memory.stores.record import DIFF_HASH_FIELD, FixRecord
from astra_memory.stores.store_needs import EMBEDDED_FIELD

BATCH = 500


class MigrationError(AstraError):
    """The destination does not hold every source record (with its vector) after the move."""


@dataclass
class MigrationReport:
    source: str
    destination: str
    records: int  # records read from the source
    vectors_copied: int
    re_embedded: int
    destination_before: int
    destination_after: int
    attempts: int = 0  # failed attempts copied with the fixes (stores/attempts.py)

    def to_dict(self) -> dict:
        return asdict(self)


class CopiedVectors(Embeddings):
    """Embeddings that return the source's stored vector for a known text; others go to ``fallback``."""

    def __init__(self, fallback: Embeddings):
        self.fallback = fallback
        self.vectors: dict[str, list[float]] = {}
        self.copied = 0
        self.embedded = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out: list[list[float] | None] = [self.vectors.get(t) for t in texts]
        missing = [i for i, v in enumerate(out) if v is None]
        if missing:
            fresh = self.fallback.embed_documents([texts[i] for i in missing])
            for i, vector in zip(missing, fresh, strict=True):
                out[i] = vector
        self.copied += len(texts) - len(missing)
        self.embedded += len(missing)
        return out  # type: ignore[return-value]

    def embed_query(self, text: str) -> list[float]:
        return self.fallback.embed_query(text)


def record_keys(store: BaseStore, namespace: tuple[str, ...] = NAMESPACE) -> list[str]:
    """Every record key in the namespace, in key order (see the module docstring for why not offsets)."""
    return backend_store(store).record_keys(namespace)


def stored_vectors(store: BaseStore, namespace: tuple[str, ...] = NAMESPACE,
                   field: str = EMBEDDED_FIELD) -> dict[str, list[float]]:
    """``{key: vector}`` of one embedded field, as the backend stored it."""
    return backend_store(store).stored_vectors(namespace, field)


def _chunks(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _describe(target: str | Path) -> str:
    """The target as messages show it: a URL without its password, a path made whole."""
    return redact_url(str(target)) if "://" in str(target) else str(Path(target).expanduser())


def _as_copied(source: dict, value: dict) -> dict:
    """``value`` with the source row's diff hash, if it has one (stores/record.py ``DIFF_HASH_FIELD``:
    dropped on reading, like the embedded text): a fix changed in the source is still seen changed in
    the destination (``content_problem``)."""
    if DIFF_HASH_FIELD in source:
        value[DIFF_HASH_FIELD] = source[DIFF_HASH_FIELD]
    return value


def _copy_namespace(src: BaseStore, dst: BaseStore, copier: CopiedVectors, namespace: tuple[str, ...],
                    model, batch: int, fields: tuple[str, ...]) -> tuple[list[str], set[str], set[str]]:
    """Copy every record of ``namespace`` (validated as ``model``: fix or attempt records) with its stored
    vectors (one per embedded field: ``fields``), then verify; returns (source keys, destination keys
    before, destination keys after). A field the source never embedded (a record written before the
    field existed) is embedded here."""
    before = set(record_keys(dst, namespace))
    keys = record_keys(src, namespace)
    vectors = {field: stored_vectors(src, namespace, field) for field in fields}
    for key_batch in _chunks(keys, batch):
        items = [item for item in src.batch([GetOp(namespace, key) for key in key_batch]) if item is not None]
        values = [(item.key, _as_copied(item.value, model.from_store_value(item.value).to_store_value()))
                  for item in items]
        copier.vectors = {}
        for key, value in values:
            for field in fields:
                vector = vectors[field].get(key)
                if vector is not None and len(vector) == DIMS and isinstance(value.get(field), str):
                    copier.vectors[value[field]] = vector
        dst.batch([PutOp(namespace, key, value, index=list(fields)) for key, value in values])
    after = set(record_keys(dst, namespace))
    with_vectors = set(stored_vectors(dst, namespace))
    missing = [k for k in keys if k not in after]
    unindexed = [k for k in keys if k not in with_vectors]
    if missing or unindexed or len(after) != len(before | set(keys)):
        raise MigrationError(
            f"after the move the destination has {len(after)} records in {'.'.join(namespace)} (expected "
            f"{len(before | set(keys))}); {len(missing)} source record(s) missing, {len(unindexed)} without a vector"
            + (f", e.g. {(missing or unindexed)[0]}" if missing or unindexed else ""))
    return keys, before, after


def migrate(source: str | Path, destination: str | Path, embeddings: Embeddings, *,
            batch: int = BATCH, namespace: tuple[str, ...] = NAMESPACE) -> MigrationReport:
    """Copy every record of ``namespace`` in ``source`` (ids, values, vectors) into the same namespace of
    ``destination``, and the namespace's failed attempts (stores/attempts.py) with them; verify; report."""
    if _describe(source) == _describe(destination):
        raise ConfigurationError(f"--from and --to are the same memory: {_describe(source)}")
    copier = CopiedVectors(embeddings)
    with open_memory_store(source, embeddings, setting="--from", must_exist=True) as src, \
            open_memory_store(destination, copier, setting="--to") as dst:
        keys, before, after = _copy_namespace(src.store, dst.store, copier, namespace, FixRecord, batch, FIX_INDEX)
        attempts, _, _ = _copy_namespace(src.store, dst.store, copier, attempts_namespace(namespace),
                                         AttemptRecord, batch, (EMBEDDED_FIELD,))
        return MigrationReport(source=src.where, destination=dst.where, records=len(keys),
                               vectors_copied=copier.copied, re_embedded=copier.embedded,
                               destination_before=len(before), destination_after=len(after),
                               attempts=len(attempts))
