"""SqliteStore's semantic search, with the candidates chosen in numpy over the stored vectors.

LangGraph's ``SqliteStore`` searches by scoring every stored vector in SQL (``vec_distance_cosine``,
a few microseconds per row) inside a join that carries every record's value into the sort: about
60 ms at 10k records and 0.65-0.8 s at 100k (docs/results.md), where numpy's exact search of the
same vectors takes 1-2 ms and 20-25 ms. ``MatrixSqliteStore`` keeps the namespace's vectors as one
float32 matrix per store (read once from ``store_vectors``, read again after any commit to the file,
by this connection or another), ranks them exactly in numpy, and asks SQLite only for the best few
rows, scored with SqliteStore's own expression and returned in its own shape: the scores are
SqliteStore's to the last bit, and so is the order (a margin of extra candidates absorbs float
rounding between numpy's and sqlite-vec's cosine; rows with equal scores may come in another order).
Nothing is stored beside the store's tables, so any memory file, whichever version wrote it, is
searched the same way, nothing re-embedded.

The price: the first search after opening the file or after a write reads every vector of the
namespace (about 0.7-1 s and 150 MB of memory at 100k records on the shared 2-core machine; a few
ms at a few hundred records), so a one-shot ``memory search`` on a very large memory is not faster
than before; a session's or a server's repeated searches are.

A search with a filter on the value (``error_type=...``) is answered the same way, among the rows
SqliteStore's own filter keeps (its query for the filter, run for the rowids only). A stored vector
of another length than the index's is skipped by every search, filtered or not (SqliteStore's own
filtered query would raise "Vector dimension mismatch" on it), and named: ``skipped_vectors``.
Searches with another distance than cosine go SqliteStore's own way.

A row whose value is not valid JSON (cut off, written by hand) matches no filter: SqliteStore's filter
reads the value with ``json_extract``, which stops the whole query on such a row ("malformed JSON"), so
every filter here reads ``CASE WHEN json_valid(value) THEN value END`` instead (SQLite evaluates only the
branch it takes). Unfiltered, such a row is returned and named damaged by the memory's rules, as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from langgraph.store.base import SearchOp
from langgraph.store.sqlite import SqliteStore
from langgraph.store.sqlite.base import _json_loads, _namespace_prefix_condition

from astra_memory.stores.record import UnreadableValue

CANDIDATE_MARGIN = 16  # candidates beyond the rows the exact query keeps: float rounding, never ranking
_FILTERED_VALUE = "json_extract(value,"  # how SqliteStore's filter reads a value's field
_VALID_VALUE = "json_extract(CASE WHEN json_valid(value) THEN value END,"  # NULL for a damaged value: no match

# SqliteStore 3.1's vector query (same columns, score, de-duplication and limits: it keeps 2 * limit
# rows before OFFSET), over the candidate rows of store_vectors only.
CANDIDATES_SQL = """
    WITH scored AS (
        SELECT s.prefix, s.key, s.value, s.created_at, s.updated_at, s.expires_at, s.ttl_minutes,
            1.0 - vec_distance_cosine(sv.embedding, ?) AS score
        FROM store_vectors sv
        JOIN store s ON s.prefix = sv.prefix AND s.key = sv.key
        WHERE sv.rowid IN (SELECT value FROM json_each(?))
        ORDER BY score DESC
        LIMIT ?
    ),
    ranked AS (
        SELECT prefix, key, value, created_at, updated_at, expires_at, ttl_minutes, score,
            ROW_NUMBER() OVER (PARTITION BY prefix, key ORDER BY score DESC) AS rn
        FROM scored
    )
    SELECT prefix, key, value, created_at, updated_at, expires_at, ttl_minutes, score
    FROM ranked
    WHERE rn = 1
    ORDER BY score DESC
    LIMIT ?
    OFFSET ?
"""


class VectorMatrix:
    """The stored vectors under one namespace prefix as a float32 matrix, with their rowids and norms.

    Valid while the file is unchanged: ``PRAGMA data_version`` moves when another connection commits,
    ``total_changes`` when this one writes. Rows whose record is gone (SqliteStore's inner join drops
    them) and vectors of another length (SqliteStore's search would fail on them) are left out; the
    latter are listed in ``wrong_length`` as (namespace, key, dimensions).
    """

    def __init__(self, dims: int):
        self.dims = dims
        self.stamp: tuple | None = None
        self.rowids = None
        self.matrix = None
        self.norms = None
        self.wrong_length: list[tuple[str, str, float]] = []

    def refresh(self, conn, namespace_prefix: tuple[str, ...]) -> None:
        import numpy as np

        stamp = (namespace_prefix, conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        if stamp == self.stamp:
            return
        # "+": scan the table rather than walk its index, faster when the namespace is most of the file.
        condition, args = _namespace_prefix_condition(namespace_prefix, column="+sv.prefix")
        found = (f"FROM store_vectors sv WHERE {condition} AND length(sv.embedding) {{}} ? AND EXISTS "
                 f"(SELECT 1 FROM store s WHERE s.prefix = sv.prefix AND s.key = sv.key)")
        rows = conn.execute(f"SELECT sv.rowid, sv.embedding {found.format('=')}", (*args, 4 * self.dims)).fetchall()
        self.wrong_length = [(prefix, key, size / 4) for prefix, key, size in conn.execute(
            f"SELECT sv.prefix, sv.key, length(sv.embedding) {found.format('!=')}", (*args, 4 * self.dims))]
        self.rowids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        self.matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), self.dims)
        # Cosine = dot / norms at query time: no normalised copy of the matrix (a second 150 MB at 100k).
        norms = np.sqrt(np.einsum("ij,ij->i", self.matrix, self.matrix))
        self.norms = np.where(norms == 0, 1, norms)  # a zero vector scores 0 here, NaN in sqlite-vec
        self.stamp = stamp

    def best(self, vector: list[float], count: int, among=None) -> list[int]:
        """Rowids of the ``count`` rows most cosine-similar to ``vector``, exactly (in no order);
        ``among``: only rows whose rowid is in it (a filtered search's rows)."""
        import numpy as np

        member = None if among is None else np.isin(self.rowids, among)
        rowids = self.rowids if member is None else self.rowids[member]
        if count >= len(rowids):
            return rowids.tolist()
        # einsum, not BLAS's matrix-vector product: one thread, no pool to wake. On the shared 2-core
        # machine, right after ONNX Runtime's threads have embedded the query, this took 6.8-9.1 ms p50
        # at 10k against 14.6-15.4 ms for `@` (load 4); quiet, 0.35 vs 0.11 ms at 10k, 5.0 vs 4.0 at 100k.
        scores = np.einsum("ij,j->i", self.matrix, np.asarray(vector, dtype=np.float32)) / self.norms
        if member is not None:  # scored whole (no copy of the matrix), the others never chosen
            scores = np.where(member, scores, -np.inf)
        return self.rowids[np.argpartition(-scores, count)[:count]].tolist()


def value_or_unreadable(content):
    """SqliteStore's JSON reader, except that a value which is not JSON (cut off mid-value) comes back as
    an ``UnreadableValue`` instead of raising: SqliteStore decodes a search's rows all at once, so one
    such row would stop every search, list and delete. The memory skips it as damaged (FixMemory.damaged).
    PostgreSQL keeps values as ``jsonb``, which cannot hold one."""
    try:
        return _json_loads(content)
    except ValueError as exc:  # orjson.JSONDecodeError is a ValueError
        return UnreadableValue(f"the stored value is not valid JSON ({exc})")


class MatrixSqliteStore(SqliteStore):
    """``SqliteStore`` whose semantic searches pick their candidates in numpy (see the module docstring)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("deserializer", value_or_unreadable)
        super().__init__(*args, **kwargs)
        # One matrix per namespace prefix searched: a session searches the fixes and the failed attempts
        # (stores/attempts.py), which must not reload each other's vectors in turn.
        self._matrices: dict[tuple[str, ...], VectorMatrix] = {}

    def _matrix_answers(self, op: SearchOp) -> bool:
        return bool(self.index_config and op.query and self.index_config.get("distance_type", "cosine") == "cosine")

    def skipped_vectors(self, namespace_prefix: tuple[str, ...]) -> list[tuple[str, str, float]]:
        """(namespace, key, dimensions) of the stored vectors of another length than the index's under
        ``namespace_prefix``, which its searches skip (as of the last search there; [] before one)."""
        matrix = self._matrices.get(tuple(namespace_prefix))
        return [] if matrix is None else list(matrix.wrong_length)

    def _filtered_rowids(self, op: SearchOp) -> list[int]:
        """The store_vectors rowids of the records ``op``'s filter keeps: SqliteStore's own query for the
        filter (its plain, unranked search, without a limit), asked for the rowids only."""
        plain = SearchOp(op.namespace_prefix, op.filter, -1, 0, None, False)  # LIMIT -1: no limit
        ((sql, params, _),), _ = self._store_queries([(0, plain)])
        return [row[0] for row in self.conn.execute(
            f"SELECT sv.rowid FROM store_vectors sv JOIN ({sql}) f ON f.prefix = sv.prefix AND f.key = sv.key",
            params)]

    def unreadable_rows(self, namespace_prefix: tuple[str, ...]) -> list[str]:
        """Keys of the rows under ``namespace_prefix`` whose value is not valid JSON: a filter matches none of
        them (``_VALID_VALUE``), so a filtered search names them (outside round 8, case 07)."""
        condition, args = _namespace_prefix_condition(tuple(namespace_prefix))
        return [row[0] for row in self.conn.execute(
            f"SELECT key FROM store WHERE {condition} AND NOT json_valid(value)", args)]

    def _store_queries(self, search_ops: Sequence[tuple[int, SearchOp]]):
        """SqliteStore's queries for ``search_ops``, each filter reading only values that are valid JSON."""
        queries, requests = super()._prepare_batch_search_queries(search_ops)
        return [(sql.replace(_FILTERED_VALUE, _VALID_VALUE), *rest) for sql, *rest in queries], requests

    def _matrix_for(self, namespace_prefix: tuple[str, ...]) -> VectorMatrix:
        matrix = self._matrices.get(namespace_prefix)
        if matrix is None:
            matrix = self._matrices[namespace_prefix] = VectorMatrix(self.index_config["dims"])
        return matrix

    def _prepare_batch_search_queries(self, search_ops: Sequence[tuple[int, SearchOp]]):
        """SqliteStore's queries, with each search the matrix answers replaced by the candidates' query.

        Those searches are embedded here (by ``embed_query``: the same vectors as SqliteStore's
        ``embed_documents`` call, and a repeated query is not embedded again) and taken out of the
        embedding requests, so ``_batch_search_ops`` runs their SQL as it is."""
        import numpy as np

        queries, requests = self._store_queries(search_ops)
        mine = [(position, op) for position, (_, op) in enumerate(search_ops) if self._matrix_answers(op)]
        if not mine:
            return queries, requests
        # One query at a time through embed_query: the embeddings keep the last few query vectors, and a
        # session searches its fixes and its failed attempts with the same text (stores/embeddings.py).
        vectors = [self.embeddings.embed_query(op.query) for _, op in mine]
        for (position, op), vector in zip(mine, vectors, strict=True):
            matrix = self._matrix_for(tuple(op.namespace_prefix))
            matrix.refresh(self.conn, op.namespace_prefix)
            among = self._filtered_rowids(op) if op.filter else None
            rowids = matrix.best(vector, 2 * op.limit + CANDIDATE_MARGIN, among)
            # the bytes sqlite_vec.serialize_float32 makes, without packing floats one by one
            params = [np.asarray(vector, dtype=np.float32).tobytes(), json.dumps(rowids), 2 * op.limit, op.limit, op.offset]
            queries[position] = (CANDIDATES_SQL, params, queries[position][2])
        answered = {position for position, _ in mine}
        return queries, [(position, text) for position, text in requests if position not in answered]
