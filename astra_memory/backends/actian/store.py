"""Fix memory on Actian VectorAI DB (the origin story's database): a LangGraph ``BaseStore`` adapter.

UNVERIFIED HERE. Actian VectorAI DB's server runs only in Docker, which these machines lack, so
this adapter has been written against the ``actian-vectorai-client`` 1.0.3 API (its signatures
and models) but never run against a server. Its live test (tests/test_actian.py) runs when
``ACTIAN_VECTORAI_URL`` is set and is skipped otherwise.

Why a ``BaseStore`` and not a second FixMemory: FixMemory's rules (validation, confirmed outcomes,
deterministic ids, first-confirmed timestamps) stay in one place; this class only maps the four
store operations FixMemory uses (get, put, delete, search) onto one collection:

- collection ``astra_codebase_memory``, 384-d, cosine (``Distance.Cosine``), created on first use;
- one point per record, id = uuid5(namespace + key) (VectorAI ids are integers or UUIDs);
- payload = the record's fields at the top level (so ``error_type`` filters are plain keyword
  matches) plus ``_ns``, ``_key``, ``_created_at``, ``_updated_at``;
- the vector is the embedding of the embedded field (``embed_text``), computed here with the same
  embeddings object the other backends use; a delete removes the point, vector included;
- search with a query is the server's vector search (its score is taken as cosine similarity,
  as on the other backends: to be confirmed on a live server); search without a query scrolls the
  namespace and orders by ``_updated_at`` (newest first) on the client.

What the memory asks of a backend (backends/base.py ``MemoryBackend``):

- record lock: a file lock in the data folder (``vectorai-<host_port>-<collection>.record-lock``,
  ``filelock``), so the processes of one machine sharing that folder take turns on a record's
  read-modify-write. NOT across machines: VectorAI DB offers no lock, transaction or compare-and-set
  that client 1.0.3 exposes (its wire protocol has an ``update_filter`` on upsert, a conditional write,
  which ``points.upsert`` does not pass), so two machines confirming the same fix at the same moment
  can still lose one confirmation. Use PostgreSQL for a memory shared by many machines;
- a delete removes the point, vector included: nothing to purge;
- ``memory migrate`` (either end ``vectorai://host:port``): keys and vectors are scrolled from the
  collection (``with_vectors``). Only the embedded field ``embed_text`` has a vector here (one vector
  per point); a record's other embedded field (its cause) is embedded afresh by the destination, and
  the report counts it in ``re_embedded``.

Install with ``pip install 'astra-codebase-memory[actian]'``.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from astra_memory.backends.base import MemoryBackend
from astra_memory.errors import ConfigurationError
from astra_memory.stores.embeddings import DIMS
from astra_memory.stores.locks import LOCK_TIMEOUT_S
from astra_memory.stores.store_needs import EMBEDDED_FIELD

COLLECTION = "astra_codebase_memory"
URL_SETTING = "ACTIAN_VECTORAI_URL"
_POINT_NAMESPACE = uuid.UUID("8f6d2a4e-1b7c-5d3e-a9f0-c0ffee0a57a0")
_META = ("_ns", "_key", "_created_at", "_updated_at")
_SCROLL_PAGE = 256


def _client_module():
    try:
        import actian_vectorai
    except ImportError as exc:
        raise ConfigurationError(
            "the Actian VectorAI DB backend needs its client: pip install 'astra-codebase-memory[actian]' "
            "(actian-vectorai-client)"
        ) from exc
    return actian_vectorai


def point_id(namespace: tuple[str, ...], key: str) -> str:
    return str(uuid.uuid5(_POINT_NAMESPACE, ".".join(namespace) + "\x1f" + key))


def _now() -> datetime:
    return datetime.now(timezone.utc)


def lock_file(lock_dir: Path, url: str, collection: str) -> Path:
    """The record lock's file for one server and collection, in ``lock_dir`` (the data folder)."""
    return Path(lock_dir) / f"vectorai-{re.sub(r'[^A-Za-z0-9_.-]', '_', url)}-{collection}.record-lock"


class ActianStore(BaseStore, MemoryBackend):
    """A BaseStore on one VectorAI DB collection, for FixMemory (see the module docstring)."""

    def __init__(self, client: Any, embeddings: Embeddings, *, collection: str = COLLECTION,
                 lock_path: Path | None = None):
        self.client = client
        self.embeddings = embeddings
        self.collection = collection
        self.lock_path = lock_path  # None: this process's lock only (stores/locks.py)

    # -- what the memory asks of a backend (backends/base.py) ---------------------------------
    @contextmanager
    def records_lock(self, keys: list[str]) -> Iterator[None]:
        if self.lock_path is None:
            yield
            return
        lock = FileLock(str(self.lock_path), timeout=LOCK_TIMEOUT_S)
        try:
            lock.acquire()
        except Timeout:
            raise ConfigurationError(f"{self.lock_path}: another process held the record lock for "
                                     f"{LOCK_TIMEOUT_S:.0f} s") from None
        try:
            yield
        finally:
            lock.release()

    def record_keys(self, namespace: tuple[str, ...]) -> list[str]:
        return sorted(p.payload["_key"] for p in self._scroll(self._filter(namespace, None)))

    def stored_vectors(self, namespace: tuple[str, ...], field: str) -> dict[str, list[float]]:
        if field != EMBEDDED_FIELD:
            return {}  # one vector per point: the other fields were never embedded here
        points = self._scroll(self._filter(namespace, None), with_vectors=True)
        return {p.payload["_key"]: [float(x) for x in p.vectors] for p in points if isinstance(p.vectors, list)}

    def setup(self) -> None:
        """Create the 384-d cosine collection if it does not exist (idempotent)."""
        vai = _client_module()
        self.client.collections.get_or_create(
            self.collection, vectors_config=vai.VectorParams(size=DIMS, distance=vai.Distance.Cosine))

    # -- BaseStore ----------------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, PutOp):
                self._put(op)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(sorted({tuple(p.payload["_ns"].split(".")) for p in self._scroll(None)}))
            else:
                raise TypeError(f"unsupported store operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, list(ops))

    # -- operations ---------------------------------------------------------------------------
    def _item(self, payload: dict, cls=Item, **extra) -> Any:
        value = {k: v for k, v in payload.items() if k not in _META}
        return cls(value=value, key=payload["_key"], namespace=tuple(payload["_ns"].split(".")),
                   created_at=datetime.fromisoformat(payload["_created_at"]),
                   updated_at=datetime.fromisoformat(payload["_updated_at"]), **extra)

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        points = self.client.points.get(self.collection, [point_id(namespace, key)], with_payload=True)
        return self._item(points[0].payload) if points and points[0].payload else None

    def _put(self, op: PutOp) -> None:
        pid = point_id(op.namespace, op.key)
        if op.value is None:
            self.client.points.delete(self.collection, ids=[pid], strict=False)
            return
        vai = _client_module()
        existing = self._get(op.namespace, op.key)
        now = _now()
        created = existing.created_at if existing else now
        text = op.value.get(EMBEDDED_FIELD)
        if not isinstance(text, str):
            raise ValueError(f"an Actian memory record needs the text field {EMBEDDED_FIELD!r} to embed")
        vector = self.embeddings.embed_documents([text])[0]
        payload = {**op.value, "_ns": ".".join(op.namespace), "_key": op.key,
                   "_created_at": created.isoformat(), "_updated_at": now.isoformat()}
        self.client.points.upsert(self.collection, [vai.PointStruct(id=pid, vector=vector, payload=payload)])

    def _filter(self, namespace: tuple[str, ...], conditions: dict[str, Any] | None):
        from actian_vectorai.filters import Field, FilterBuilder

        builder = FilterBuilder().must(Field("_ns").eq(".".join(namespace)))
        for key, value in (conditions or {}).items():
            if isinstance(value, dict):
                raise ValueError(f"the Actian memory supports equality filters only, not {value!r}")
            builder = builder.must(Field(key).eq(value))
        return builder.build()

    def _scroll(self, flt, *, with_vectors: bool = False) -> Iterator[Any]:
        offset = None
        while True:
            points, offset = self.client.points.scroll(self.collection, offset=offset, limit=_SCROLL_PAGE,
                                                       filter=flt, with_payload=True, with_vectors=with_vectors)
            yield from points
            if offset is None or not points:
                return

    def _search(self, op: SearchOp) -> list[SearchItem]:
        flt = self._filter(op.namespace_prefix, op.filter)
        if op.query:
            vector = self.embeddings.embed_query(op.query)
            points = self.client.points.search(self.collection, vector, limit=op.limit + op.offset, filter=flt,
                                               with_payload=True)
            return [self._item(p.payload, SearchItem, score=float(p.score)) for p in points[op.offset:]]
        items = [self._item(p.payload, SearchItem) for p in self._scroll(flt)]
        items.sort(key=lambda item: item.updated_at, reverse=True)
        return items[op.offset:op.offset + op.limit]


@contextmanager
def open_actian_store(embeddings: Embeddings, url: str | None = None, *, collection: str = COLLECTION,
                      setting: str = URL_SETTING, lock_dir: Path | None = None) -> Iterator[ActianStore]:
    """A set-up ActianStore on the server at ``url`` (default: ``ACTIAN_VECTORAI_URL``, host:port);
    ``setting`` names what the user set, for messages (the backend passes ASTRA_VECTORAI_URL);
    ``lock_dir``: the folder of its record lock's file (the data folder; None: this process only)."""
    import os

    vai = _client_module()
    url = url or os.environ.get(URL_SETTING)
    if not url:
        raise ConfigurationError(f"set {setting} (host:port of the VectorAI DB gRPC server)")
    client = vai.VectorAIClient(url)
    try:
        try:
            client.health_check()
        except Exception as exc:
            raise ConfigurationError(f"cannot reach Actian VectorAI DB at {url} (set by {setting}): {exc}") from None
        lock_path = None
        if lock_dir is not None:
            Path(lock_dir).mkdir(parents=True, exist_ok=True)
            lock_path = lock_file(lock_dir, url, collection)
        store = ActianStore(client, embeddings, collection=collection, lock_path=lock_path)
        store.setup()
        yield store
    finally:
        client.close()
