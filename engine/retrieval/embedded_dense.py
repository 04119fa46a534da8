"""Dense retrieval on vectors from an embeddings endpoint, with the LSA standing in when it fails.

A document's chunks are embedded in batches of ``batch_size`` the first time a run searches it by meaning;
the vectors are kept in ``<entry>/embeddings.npz`` (written under a temporary name, renamed into place),
keyed by the model name, the vectors' width and the document's parse (chunk ids and texts), and in a
small in-process cache. Another model or another parse rebuilds them. A build cut short (its time cap, a
failing batch) keeps what it embedded, and the next run goes on from there.

``EmbeddingDense`` is made per run: queries are embedded at ask time and chunks ranked by cosine
similarity. The first failure of the endpoint (timeout, HTTP error, a malformed reply, the wrong number or
width of vectors) switches that run's dense retrieval to the document's LSA, and ``failure`` keeps the
reason (one key-free line from the ``Embedder``); the next run tries the endpoint again.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
import zipfile
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.contracts import ParsedDocument, RankedList
from engine.retrieval.dense import pin_blas_to_one_thread, ranked_by_similarity
from engine.retrieval.index import DenseSlot, DocumentIndex
from engine.retrieval.protocols import LSA_ENGINE, Embedder, EmbeddingError

log = logging.getLogger(__name__)

EMBEDDINGS_NAME = "embeddings.npz"
EMBEDDINGS_FORMAT = 1
"""Bump when the file layout changes: saved vectors of another format are rebuilt."""
MAX_TEXT_CHARS = 4000
"""A chunk's text is cut here before it is sent (chunks are ~1,200 characters; this bounds a request)."""
_MEMORY_DOCUMENTS = 8
"""Documents whose vectors stay in memory between runs (least recently used dropped)."""


@dataclass(frozen=True)
class ChunkVectors:
    """Unit vectors of a document's first ``len(rows)`` chunks, as one model made them."""

    model: str
    digest: bytes
    rows: np.ndarray  # n x d float32, unit rows

    @property
    def width(self) -> int:
        return int(self.rows.shape[1]) if self.rows.ndim == 2 else 0

    def save(self, path: Path) -> None:
        """Write to ``path`` through a temporary file (never half-written); an unwritable folder is skipped."""
        if not path.parent.is_dir():  # the entry was deleted meanwhile: nothing to keep
            return
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            with open(tmp, "wb") as handle:
                np.savez(
                    handle,
                    format=np.array([EMBEDDINGS_FORMAT, self.width], dtype=np.int64),
                    model=np.frombuffer(self.model.encode("utf-8"), dtype=np.uint8),
                    digest=np.frombuffer(self.digest, dtype=np.uint8),
                    rows=self.rows,
                )
            tmp.replace(path)
        except OSError as exc:  # a read-only library keeps the vectors in memory only
            log.info("embeddings of %s not saved: %s", path.parent.name[:16], exc)
        finally:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path, model: str, digest: bytes) -> ChunkVectors | None:
        """The saved vectors when they were made by ``model`` for this parse, else None (rebuilt)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                fmt, width = (int(v) for v in data["format"])
                saved_model = bytes(data["model"]).decode("utf-8")
                saved_digest, rows = bytes(data["digest"]), data["rows"]
        except FileNotFoundError:
            return None
        except (OSError, KeyError, ValueError, EOFError, UnicodeDecodeError, zipfile.BadZipFile) as exc:
            log.info("rebuilding unreadable embeddings %s: %s", path, exc)
            return None
        if fmt != EMBEDDINGS_FORMAT or saved_model != model or saved_digest != digest:
            return None
        if rows.ndim != 2 or rows.shape[1] != width or rows.dtype != np.float32:
            return None
        return cls(model, digest, rows)


def parse_digest(doc: ParsedDocument) -> bytes:
    """What the vectors depend on: every chunk's id and text, in order."""
    sha = hashlib.sha256()
    for chunk in doc.chunks:
        sha.update(chunk.chunk_id.encode())
        sha.update(b"\0")
        sha.update(chunk_text(chunk.section_path, chunk.text).encode("utf-8", "replace"))
        sha.update(b"\0")
    return sha.digest()


def chunk_text(section_path: tuple[str, ...], text: str) -> str:
    """What is embedded for a chunk: its section titles, then its text (as the LSA reads it)."""
    return "\n".join((" > ".join(section_path), text)).strip()[:MAX_TEXT_CHARS]


_MEMORY: OrderedDict[tuple[str, str, bytes], ChunkVectors] = OrderedDict()
_MEMORY_LOCK = threading.Lock()


def _remembered(key: tuple[str, str, bytes]) -> ChunkVectors | None:
    with _MEMORY_LOCK:
        found = _MEMORY.get(key)
        if found is not None:
            _MEMORY.move_to_end(key)
        return found


def _remember(key: tuple[str, str, bytes], vectors: ChunkVectors | None) -> None:
    with _MEMORY_LOCK:
        if vectors is None:
            _MEMORY.pop(key, None)
            return
        _MEMORY[key] = vectors
        _MEMORY.move_to_end(key)
        while len(_MEMORY) > _MEMORY_DOCUMENTS:
            _MEMORY.popitem(last=False)


class EmbeddingDense:
    """One run's dense retriever over one document: the endpoint's vectors, or the LSA once it failed."""

    def __init__(
        self,
        doc: ParsedDocument,
        embedder: Embedder,
        lsa: DenseSlot,
        folder: Path | None,
        batch_size: int,
        build_seconds: float,
        query_seconds: float,
    ) -> None:
        """``folder`` is the library entry's folder (None: vectors kept in memory only)."""
        self.doc = doc
        self.embedder = embedder
        self.failure: str | None = None
        self._lsa = lsa
        self._path = folder / EMBEDDINGS_NAME if folder is not None else None
        self._batch = max(1, batch_size)
        self._build_seconds = build_seconds
        self._query_seconds = query_seconds
        self._digest = parse_digest(doc)
        self._key = (str(self._path or doc.doc_id), embedder.model, self._digest)
        self._lock = threading.Lock()
        self._pages = np.array([c.page for c in doc.chunks], dtype=np.int64)

    @property
    def engine(self) -> str:
        return LSA_ENGINE if self.failure is not None else f"embeddings: {self.embedder.model}"

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList:
        """Chunks ranked by cosine similarity to the query's vector; the LSA's ranking once the endpoint failed."""
        if self.failure is None:
            try:
                return self._search(query, k, pages)
            except EmbeddingError as exc:
                self._fail(exc.reason)
        return self._lsa.get().search(query, k, pages)

    def _fail(self, reason: str) -> None:
        with self._lock:
            if self.failure is None:
                self.failure = reason
        log.warning("dense retrieval fell back to LSA for this run: %s", reason)

    def _search(self, query: str, k: int, pages: frozenset[int] | None) -> RankedList:
        if k <= 0 or not self.doc.chunks or not query.strip():
            return RankedList(query=query, retriever="dense")
        rows = self.vectors()
        asked = self.embedder.embed([query], time.monotonic() + self._query_seconds)
        if asked.shape != (1, rows.shape[1]):
            self._forget()  # the model changed under its name: rebuilt next run
            raise EmbeddingError(
                f"the query's vector has {asked.shape[-1]} dimensions, the document's {rows.shape[1]}; "
                "the document's vectors are rebuilt next time"
            )
        pin_blas_to_one_thread()
        return ranked_by_similarity(query, self.doc.chunks, self._pages, rows @ _unit(asked)[0], k, pages)

    def vectors(self) -> np.ndarray:
        """Every chunk's unit vector: from memory, from the entry's file, or embedded now (and saved)."""
        with self._lock:
            found = _remembered(self._key)
            if found is None and self._path is not None:
                found = ChunkVectors.load(self._path, self.embedder.model, self._digest)
            if found is not None and len(found.rows) == len(self.doc.chunks):
                _remember(self._key, found)
                return found.rows
            return self._build(found)

    def _build(self, partial: ChunkVectors | None) -> np.ndarray:
        """Embed the chunks not embedded yet, a batch at a time, within ``build_seconds``."""
        done = [partial.rows] if partial is not None and len(partial.rows) else []
        start = len(partial.rows) if partial is not None else 0
        deadline = time.monotonic() + self._build_seconds
        texts = [chunk_text(c.section_path, c.text) for c in self.doc.chunks]
        log.info("embedding %d of %d chunks of %s", len(texts) - start, len(texts), self.doc.file_name)
        try:
            for first in range(start, len(texts), self._batch):
                if time.monotonic() >= deadline:
                    raise EmbeddingError(
                        f"embedding the document's {len(texts)} chunks takes longer than {self._build_seconds:g} s; "
                        f"{first} are done and kept, the next question goes on"
                    )
                batch = _unit(self.embedder.embed(texts[first : first + self._batch], deadline))
                if done and batch.shape[1] != done[0].shape[1]:
                    self._forget()  # the model changed under its name: start over next time
                    done = []
                    raise EmbeddingError("the endpoint's vectors changed width; they are rebuilt next time")
                done.append(batch)
        finally:
            kept = ChunkVectors(self.embedder.model, self._digest, np.concatenate(done) if done else _empty())
            if len(kept.rows) > (len(partial.rows) if partial is not None else 0):
                _remember(self._key, kept)
                if self._path is not None:
                    kept.save(self._path)
        return kept.rows

    def _forget(self) -> None:
        """Drop this document's vectors (memory and file): they no longer match what the model returns."""
        _remember(self._key, None)
        if self._path is not None:
            self._path.unlink(missing_ok=True)


def with_embeddings(
    index: DocumentIndex,
    embedder: Embedder,
    folder: Path | None,
    batch_size: int,
    build_seconds: float,
    query_seconds: float,
) -> tuple[DocumentIndex, EmbeddingDense]:
    """``index`` for one run with dense retrieval on ``embedder``'s vectors (its LSA standing in on failure)."""
    dense = EmbeddingDense(index.doc, embedder, index.dense_slot, folder, batch_size, build_seconds, query_seconds)
    return index.with_dense(dense), dense


def _unit(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32)


def _empty() -> np.ndarray:
    return np.zeros((0, 0), dtype=np.float32)


__all__ = ["EMBEDDINGS_NAME", "ChunkVectors", "EmbeddingDense", "parse_digest", "with_embeddings"]
