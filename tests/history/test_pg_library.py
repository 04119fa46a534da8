"""The team library in PostgreSQL: rows, idempotent and atomic ingest, local caches, re-parse, delete."""

from __future__ import annotations

import hashlib
from pathlib import Path

import psycopg
import pytest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.contracts import LibraryEntry
from engine.documents.parsing import PARSER_VERSION
from engine.errors import DocumentNotFoundError, NotAPdfError
from engine.library import open_library, store_kind
from engine.library.pg_cache import CACHE_DIR, FORMAT_VERSION, decode_parsed
from engine.library.pg_library import PgLibrary
from tests import pdfs

pytestmark = pytest.mark.postgres


def _library(folder: Path) -> PgLibrary:
    library = open_library(EngineConfig(library=LibraryConfig(path=str(folder))))
    assert isinstance(library, PgLibrary)
    return library


@pytest.fixture
def library(pg_url: str, tmp_path: Path) -> PgLibrary:
    return _library(tmp_path / "replica-a")


def _one(url: str, query: str, *params: object) -> tuple:
    with psycopg.connect(url) as conn:
        row = conn.execute(query, params).fetchone()  # type: ignore[call-overload]
    assert row is not None
    return row


def test_the_url_picks_postgresql(library: PgLibrary, pg_url: str) -> None:
    assert store_kind() == "postgresql"
    assert "@127.0.0.1" in library.db.label and pg_url.split("@")[0].split(":")[-1] not in library.db.label


def test_ingest_stores_the_document_its_chunks_and_local_copies(library: PgLibrary, pg_url: str) -> None:
    data = pdfs.pdf_with_outline()
    events: list[float] = []
    entry = library.ingest(data, "report.pdf", progress=lambda f, m: events.append(f))
    assert isinstance(entry, LibraryEntry) and entry.total_pages == 4 and entry.profile.has_usable_toc
    assert entry.doc_id == hashlib.sha256(data).hexdigest()
    assert events[0] == 0.0 and events[-1] == 1.0 and events == sorted(events)
    pdf, parsed, fmt, parser, chunks = _one(
        pg_url,
        "SELECT pdf, parsed, format_version, parser_version, (SELECT count(*) FROM loupe_chunks c "
        "WHERE c.doc_id = d.doc_id AND c.tsv <> ''::tsvector) FROM loupe_documents d WHERE doc_id = %s",
        entry.doc_id,
    )
    doc = decode_parsed(bytes(parsed))
    assert bytes(pdf) == data and (fmt, parser) == (FORMAT_VERSION, PARSER_VERSION)
    assert chunks == len(doc.chunks) > 0
    cached = library.root / CACHE_DIR / entry.doc_id
    assert (cached / "original.pdf").read_bytes() == data and len(list(cached.glob("parsed-*.z"))) == 1


def test_same_bytes_twice_is_one_entry_and_entries_are_newest_first(library: PgLibrary) -> None:
    first = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    assert library.ingest(pdfs.pdf_with_outline(), "b.pdf") == first
    second = library.ingest(pdfs.pdf_listing(), "c.pdf")
    assert [e.doc_id for e in library.entries()] == [second.doc_id, first.doc_id]
    assert library.get(first.doc_id[:10]) == first and library.get(second.doc_id.upper()) == second
    with pytest.raises(DocumentNotFoundError, match="not a document id"):
        library.get("'; DROP TABLE loupe_documents; --")
    with pytest.raises(DocumentNotFoundError, match="no document"):
        library.get("0" * 64 if not first.doc_id.startswith("0") else "f" * 64)


def test_a_bad_pdf_changes_nothing(library: PgLibrary) -> None:
    with pytest.raises(NotAPdfError):
        library.ingest(pdfs.not_a_pdf(), "x.pdf")
    assert library.entries() == []


def test_another_replica_with_its_own_folder_reads_everything_from_the_database(
    library: PgLibrary, tmp_path: Path
) -> None:
    data = pdfs.pdf_with_outline()
    entry = library.ingest(data, "report.pdf")
    other = _library(tmp_path / "replica-b")
    assert other.entries() == [entry]
    hits = other.load(entry.doc_id).search("forty thousand annotated documents", "keyword", k=3).hits
    assert hits and hits[0].chunk.page == 2 and hits[0].retriever == "keyword"
    assert other.pdf_bytes(entry.doc_id) == data
    assert (tmp_path / "replica-b" / CACHE_DIR / entry.doc_id / "original.pdf").exists()


@pytest.mark.parametrize("damage", ["delete", "garble"])
def test_a_missing_or_damaged_local_copy_is_rebuilt_from_the_database(
    damage: str, library: PgLibrary, tmp_path: Path
) -> None:
    entry = library.ingest(pdfs.pdf_with_outline(), "report.pdf")
    (copy,) = (library.root / CACHE_DIR / entry.doc_id).glob("parsed-*.z")
    if damage == "delete":
        copy.unlink()
    else:
        copy.write_bytes(b"\x00garbage" * 50)
    fresh = _library(library.root)  # a new process would see the same folder
    assert fresh.parsed(entry.doc_id).total_pages == 4
    assert decode_parsed(copy.read_bytes()).doc_id == entry.doc_id


def test_a_row_from_an_older_parser_is_reparsed_once(library: PgLibrary, pg_url: str) -> None:
    entry = library.ingest(pdfs.pdf_with_outline(), "report.pdf")
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE loupe_documents SET parser_version = 0, parsed_digest = 'old'")
        conn.execute("DELETE FROM loupe_chunks WHERE position > 0")
    index = _library(library.root).load(entry.doc_id)
    version, digest, chunks = _one(
        pg_url, "SELECT parser_version, parsed_digest, (SELECT count(*) FROM loupe_chunks) FROM loupe_documents"
    )
    assert version == PARSER_VERSION and digest != "old" and chunks == len(index.doc.chunks)
    assert index.search("forty thousand annotated documents", "keyword", k=1).hits


def test_a_failure_while_writing_chunks_rolls_everything_back(
    library: PgLibrary, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.library.pg_library as module

    real = module.write_chunks

    def write_then_fail(conn, doc, *collection) -> None:
        real(conn, doc, *collection)
        raise OSError("connection lost (injected)")

    monkeypatch.setattr(module, "write_chunks", write_then_fail)
    with pytest.raises(OSError):
        library.ingest(pdfs.pdf_with_outline(), "report.pdf")
    assert _one(pg_url, "SELECT (SELECT count(*) FROM loupe_documents), (SELECT count(*) FROM loupe_chunks)") == (0, 0)
    monkeypatch.undo()
    assert library.ingest(pdfs.pdf_with_outline(), "report.pdf").total_pages == 4


def test_delete_removes_rows_caches_and_local_copies(library: PgLibrary, pg_url: str, tmp_path: Path) -> None:
    entry = library.ingest(pdfs.pdf_with_outline(), "report.pdf")
    other = _library(tmp_path / "replica-b")
    other.load(entry.doc_id)
    library.delete(entry.doc_id)
    assert _one(pg_url, "SELECT (SELECT count(*) FROM loupe_documents), (SELECT count(*) FROM loupe_chunks)") == (0, 0)
    assert not (library.root / CACHE_DIR / entry.doc_id).exists()
    with pytest.raises(DocumentNotFoundError):
        other.load(entry.doc_id)


def test_answers_name_postgresql_as_the_keyword_engine(library: PgLibrary) -> None:
    entry = library.ingest(pdfs.pdf_with_outline(), "report.pdf")
    result = answer("How many annotated documents were used for training?", [entry.doc_id], library=library)
    assert "PostgreSQL full-text search" in result.activations.keyword_retrieval.reason
    assert result.evidence_pages and result.evidence_pages[0].page == 2
