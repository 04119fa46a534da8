"""Dense retrieval: the protocol, and an offline LSA retriever (TF-IDF + truncated SVD in numpy).

The LSA of a document is built once and saved with its library entry (:meth:`LsaRetriever.save`,
:meth:`LsaRetriever.load`). BLAS is pinned to one thread once the engine uses it: on a small
machine OpenBLAS threads fight each other and every other request (4-18x slower measured on 2 cores).
"""

from __future__ import annotations

import hashlib
import logging
import math
import secrets
import threading
import zipfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

from engine.config import RetrievalConfig
from engine.contracts import Chunk, Hit, ParsedDocument, RankedList
from engine.documents.text import STOPWORDS, tokenize
from engine.retrieval.protocols import LSA_ENGINE, DenseRetriever

log = logging.getLogger(__name__)

_EXACT_SVD_CELLS = 3_000_000
"""Below this many matrix cells the exact SVD of the dense matrix is used; above, randomized SVD."""
_PRODUCT_ROWS = 64
"""Rows per block of the sparse products: keeps the gathered temporary small enough for the CPU cache."""
DENSE_FORMAT = 1
"""Bump when the LSA or its file layout changes: saved indexes of another format are rebuilt."""

_blas_lock = threading.Lock()
_blas_pinned = False


def pin_blas_to_one_thread() -> None:
    """Limit BLAS to one thread for the rest of the process, once (threadpoolctl).

    OpenBLAS (pthreads) keeps one thread pool for the whole process, and threadpoolctl lets only one
    Python thread at a time set its size, so the limit is set once and kept rather than set and
    restored around each call. The engine is the only BLAS user in the process that needs it.
    """
    global _blas_pinned
    if _blas_pinned:
        return
    with _blas_lock:
        if not _blas_pinned:
            ThreadpoolController().limit(limits=1, user_api="blas")  # kept: never restored
            _blas_pinned = True
            log.debug("BLAS limited to one thread")


def _terms(text: str) -> list[str]:
    stop = STOPWORDS
    return [t for t in tokenize(text) if t not in stop and (len(t) > 1 or t.isdigit())]


class _Csr:
    """A minimal compressed-sparse-row matrix: just the two products randomized SVD needs."""

    def __init__(self, rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, shape: tuple[int, int]) -> None:
        self.shape = shape
        self.rows, self.cols, self.vals = rows, cols, vals
        by_col = np.argsort(cols, kind="stable")
        self.t_rows, self.t_cols, self.t_vals = cols[by_col], rows[by_col], vals[by_col]

    @staticmethod
    def _product(rows: np.ndarray, cols: np.ndarray, vals: np.ndarray, dense: np.ndarray, n_out: int) -> np.ndarray:
        out = np.zeros((n_out, dense.shape[1]), dtype=np.float32)
        if rows.size == 0:
            return out
        dense = dense.astype(np.float32, copy=False)
        starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
        for first in range(0, len(starts), _PRODUCT_ROWS):
            block = starts[first : first + _PRODUCT_ROWS]
            lo = block[0]
            hi = starts[first + _PRODUCT_ROWS] if first + _PRODUCT_ROWS < len(starts) else rows.size
            contrib = vals[lo:hi, None] * dense[cols[lo:hi]]
            out[rows[block]] = np.add.reduceat(contrib, block - lo, axis=0)
        return out

    def dot(self, dense: np.ndarray) -> np.ndarray:
        return self._product(self.rows, self.cols, self.vals, dense, self.shape[0])

    def tdot(self, dense: np.ndarray) -> np.ndarray:
        return self._product(self.t_rows, self.t_cols, self.t_vals, dense, self.shape[1])

    def todense(self) -> np.ndarray:
        out = np.zeros(self.shape, dtype=np.float64)
        out[self.rows, self.cols] = self.vals
        return out


def _randomized_svd(
    matrix: _Csr, rank: int, seed: int = 0, power: int = 1
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    omega = rng.standard_normal((matrix.shape[1], rank + 10)).astype(np.float32)
    q, _ = np.linalg.qr(matrix.dot(omega))
    for _ in range(power):
        z, _ = np.linalg.qr(matrix.tdot(q))
        q, _ = np.linalg.qr(matrix.dot(z))
    small = matrix.tdot(q).T  # (rank+10) x V
    u_small, s, vt = np.linalg.svd(small, full_matrices=False)
    return (q @ u_small)[:, :rank], s[:rank], vt[:rank]


class LsaRetriever:
    """Latent semantic analysis over a document's own chunks (deterministic, no network)."""

    engine = LSA_ENGINE

    def __init__(
        self,
        chunks: Sequence[Chunk],
        vocab: dict[str, int],
        idf: np.ndarray,
        doc_vectors: np.ndarray,
        projection: np.ndarray | None,
    ) -> None:
        self._chunks = tuple(chunks)
        self._vocab = vocab
        self._idf = idf.astype(np.float32)
        self._docs = doc_vectors.astype(np.float32)  # N x d, unit rows
        self._projection = None if projection is None else projection.astype(np.float32)  # V x d
        self._pages = np.array([c.page for c in self._chunks], dtype=np.int64)

    @classmethod
    def build(cls, doc: ParsedDocument, config: RetrievalConfig) -> LsaRetriever:
        """TF-IDF (sublinear tf, min df 2 once there are 50+ chunks) reduced to ``dense_dimensions``."""
        pin_blas_to_one_thread()
        return cls._build(doc, config)

    @classmethod
    def _build(cls, doc: ParsedDocument, config: RetrievalConfig) -> LsaRetriever:
        chunks = doc.chunks
        counted = [_count(_terms(" ".join((*c.section_path, c.text)))) for c in chunks]
        df: Counter[str] = Counter()
        for counts in counted:
            df.update(counts.keys())
        min_df = 2 if len(chunks) >= 50 else 1
        vocab = {t: i for i, t in enumerate(sorted(t for t, n in df.items() if n >= min_df))}
        n = len(chunks)
        idf = np.zeros(len(vocab))
        for term, i in vocab.items():
            idf[i] = math.log((1 + n) / (1 + df[term])) + 1.0
        rows, cols, vals = [], [], []
        weight = idf.tolist()  # Python floats: the same products as numpy's float64 scalars, without their cost
        top = max((max(counts.values()) for counts in counted if counts), default=0)
        logs = [0.0, *(1.0 + math.log(tf) for tf in range(1, top + 1))]  # 1 + log(tf), by tf
        column_of = vocab.get
        for r, counts in enumerate(counted):
            for term, tf in counts.items():
                column = column_of(term)
                if column is not None:
                    rows.append(r)
                    cols.append(column)
                    vals.append(logs[tf] * weight[column])
        vals_a = np.asarray(vals, dtype=np.float32)
        rows_a = np.asarray(rows, dtype=np.int64)
        if vals_a.size:
            norms = np.sqrt(np.bincount(rows_a, weights=vals_a**2, minlength=n))
            vals_a = (vals_a / norms[rows_a]).astype(np.float32)
        matrix = _Csr(rows_a, np.asarray(cols, dtype=np.int64), vals_a, (n, len(vocab)))
        rank = min(config.dense_dimensions, n - 1, len(vocab) - 1)
        if rank < 2:
            return cls(chunks, vocab, idf, _unit(matrix.todense()), None)
        if n * len(vocab) <= _EXACT_SVD_CELLS:
            u, s, vt = np.linalg.svd(matrix.todense(), full_matrices=False)
            u, s, vt = u[:, :rank], s[:rank], vt[:rank]
        else:
            u, s, vt = _randomized_svd(matrix, rank)
        signs = np.sign(vt[np.arange(rank), np.abs(vt).argmax(axis=1)])  # deterministic orientation
        signs[signs == 0] = 1
        u, vt = u * signs, vt * signs[:, None]
        log.debug("LSA built: %d chunks, %d terms, %d dims", n, len(vocab), rank)
        return cls(chunks, vocab, idf, _unit(u * s), vt.T.copy())

    # ---- persistence ------------------------------------------------------------------------

    def save(self, path: Path, dimensions: int) -> None:
        """Write the model to ``path`` (a temporary file renamed into place: never half-written)."""
        path = Path(path)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        projection = self._projection if self._projection is not None else np.zeros((0, 0), np.float32)
        try:
            with open(tmp, "wb") as handle:
                np.savez(
                    handle,
                    format=np.array([DENSE_FORMAT, dimensions], dtype=np.int64),
                    chunks=np.frombuffer(_chunk_digest(self._chunks), dtype=np.uint8),
                    vocab=np.frombuffer("\n".join(self._vocab).encode("utf-8"), dtype=np.uint8),
                    idf=self._idf,
                    docs=self._docs,
                    projection=projection,
                )
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path, doc: ParsedDocument, dimensions: int) -> LsaRetriever:
        """Read a model written by :meth:`save` for ``doc``; ``ValueError`` when it is stale or damaged."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                fmt, dims = (int(v) for v in data["format"])
                digest = bytes(data["chunks"])
                words = bytes(data["vocab"]).decode("utf-8")
                idf, docs, projection = data["idf"], data["docs"], data["projection"]
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"unreadable dense index ({exc})") from exc
        if fmt != DENSE_FORMAT or dims != dimensions or digest != _chunk_digest(doc.chunks):
            raise ValueError("the dense index was built for another format, setting or parse")
        vocab = {w: i for i, w in enumerate(words.split("\n"))} if words else {}
        has_projection = projection.size > 0
        width = projection.shape[0] if has_projection else docs.shape[1] if docs.ndim == 2 else -1
        if docs.ndim != 2 or docs.shape[0] != len(doc.chunks) or len(vocab) != len(idf) or width != len(vocab):
            raise ValueError("the dense index does not match the document")
        return cls(doc.chunks, vocab, idf, docs, projection if has_projection else None)

    # ---- search -----------------------------------------------------------------------------

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList:
        """Chunks ranked by cosine similarity to the query folded into the LSA space."""
        pin_blas_to_one_thread()
        return self._search(query, k, pages)

    def _search(self, query: str, k: int, pages: frozenset[int] | None) -> RankedList:
        counts = _count(_terms(query))
        idx = [self._vocab[t] for t in counts if t in self._vocab]
        if k <= 0 or not idx or not self._chunks:
            return RankedList(query=query, retriever="dense")
        weights = np.array([(1.0 + math.log(counts[t])) for t in counts if t in self._vocab], dtype=np.float32)
        weights *= self._idf[idx]
        if self._projection is not None:
            q = weights @ self._projection[idx]
        else:
            q = np.zeros(self._docs.shape[1], dtype=np.float32)
            q[idx] = weights
        norm = float(np.linalg.norm(q))
        if norm == 0:
            return RankedList(query=query, retriever="dense")
        sims = self._docs @ (q / norm).astype(np.float32)
        return ranked_by_similarity(query, self._chunks, self._pages, sims, k, pages)


def ranked_by_similarity(
    query: str,
    chunks: Sequence[Chunk],
    chunk_pages: np.ndarray,
    sims: np.ndarray,
    k: int,
    pages: frozenset[int] | None,
) -> RankedList:
    """The ``k`` chunks of highest positive similarity ``sims`` (one per chunk), only on ``pages`` when given."""
    if pages is not None:
        sims = np.where(np.isin(chunk_pages, list(pages)), sims, -np.inf)
    take = min(k, len(sims))
    if take <= 0:
        return RankedList(query=query, retriever="dense")
    top = np.argpartition(-sims, take - 1)[:take]
    top = top[np.lexsort((top, -sims[top]))]
    hits = [
        Hit(chunk=chunks[i], score=round(float(sims[i]), 6), retriever="dense", rank=r)
        for r, i in enumerate((i for i in top if np.isfinite(sims[i]) and sims[i] > 0), start=1)
    ]
    return RankedList(query=query, retriever="dense", hits=tuple(hits))


def _chunk_digest(chunks: Sequence[Chunk]) -> bytes:
    sha = hashlib.sha1()
    for chunk in chunks:
        sha.update(chunk.chunk_id.encode())
        sha.update(b"\0")
    return sha.digest()


def _count(terms: list[str]) -> dict[str, int]:
    """Each term's count, in the order the terms first appear."""
    return Counter(terms)


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


__all__ = ["DENSE_FORMAT", "DenseRetriever", "LsaRetriever", "pin_blas_to_one_thread", "ranked_by_similarity"]
