"""Keyword retrieval through PostgreSQL full-text search, on hand-built documents (same seam as Whoosh)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import RetrievalConfig
from engine.contracts import DocumentProfile, LibraryEntry, ParsedDocument
from engine.library.pg_library import write_document
from engine.library.postgres import PgDatabase, database
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex
from engine.retrieval.pg_keyword import PgKeywordIndex, corpus_search, websearch_text
from engine.retrieval.protocols import KeywordRetriever
from tests.retrieval.factories import chunk, document, paper


def test_a_query_becomes_plain_words_joined_by_or() -> None:
    assert websearch_text("What is the dropout rate?") == "dropout or rate"
    assert websearch_text('"unbalanced OR -x & | ! :* <-> (a) or b c:*') == "unbalanced"
    assert websearch_text("the of and") == "the or of or and"  # only stop words: kept, the database drops them
    assert websearch_text("") == ""


def _profile(doc: ParsedDocument) -> DocumentProfile:
    return DocumentProfile(doc_id=doc.doc_id, file_name=doc.file_name, total_pages=doc.total_pages,
                           has_usable_toc=bool(doc.toc), toc_entries=len(doc.toc), is_likely_scanned=False,
                           has_tables=False, text_pages=doc.total_pages, suggested_strategy="dispatched")  # fmt: skip


def store(db: PgDatabase, doc: ParsedDocument) -> None:
    entry = LibraryEntry(doc_id=doc.doc_id, file_name=doc.file_name, size_bytes=3, total_pages=doc.total_pages,
                         added_at="2025-01-01T00:00:00+00:00", profile=_profile(doc))  # fmt: skip
    with db.connection() as conn:
        write_document(conn, entry, doc, b"pdf")


@pytest.fixture
def db(pg_url: str) -> PgDatabase:
    return database(pg_url)


pg = pytest.mark.postgres


@pg
def test_the_chunk_holding_the_query_words_ranks_first(db: PgDatabase) -> None:
    doc = paper()
    store(db, doc)
    index = PgKeywordIndex(db, doc, RetrievalConfig())
    ranked = index.search("label smoothing value", k=3)
    assert ranked.retriever == "keyword" and ranked.hits[0].chunk.page == 3
    assert "Label Smoothing" in ranked.hits[0].chunk.text and ranked.hits[0].highlight
    assert [h.rank for h in ranked.hits] == list(range(1, len(ranked.hits) + 1))
    assert isinstance(index, KeywordRetriever) and index.engine.startswith("PostgreSQL")


@pg
@pytest.mark.parametrize("boost", [1.0, 3.0])
def test_a_heading_match_weighs_heading_boost_times_a_body_match(db: PgDatabase, boost: float) -> None:
    in_body = "We tuned the dropout rate carefully."
    in_heading = ("We tuned the rate carefully.", "text", (), ("Dropout",))  # the same words, one in the heading
    doc = document([[in_body, in_heading]])
    store(db, doc)
    hits = PgKeywordIndex(db, doc, RetrievalConfig(heading_boost=boost)).search("dropout", k=2).hits
    by_text = {h.chunk.text: h.score for h in hits}
    assert by_text["We tuned the rate carefully."] == pytest.approx(boost * by_text[in_body], rel=1e-3)
    assert hits[0].chunk.text == (in_body if boost == 1.0 else "We tuned the rate carefully.")  # ties keep order


@pg
def test_pages_restrict_the_search_and_no_query_syntax_reaches_the_parser(db: PgDatabase) -> None:
    doc = paper()
    store(db, doc)
    index = PgKeywordIndex(db, doc, RetrievalConfig())
    assert {h.chunk.page for h in index.search("Table 3 variations", k=10, pages=frozenset({4})).hits} == {4}
    assert index.search("Table 3", k=5, pages=frozenset()).hits == ()
    for hostile in ['"unbalanced', "or or or", "a & | ! :* <-> ()", "'; DROP TABLE loupe_chunks; --", "the of"]:
        index.search(hostile, k=3)  # no error
    assert index.search("attention heads", k=1).hits


@pg
def test_text_postgresql_would_refuse_is_stored_cleaned(db: PgDatabase) -> None:
    doc = document([["Nul\x00byte beside the turbidity readings."]])
    store(db, doc)
    assert PgKeywordIndex(db, doc, RetrievalConfig()).search("turbidity", k=1).hits


@pg
def test_a_reparsed_page_maps_hits_to_its_new_chunks(db: PgDatabase) -> None:
    doc = paper()
    store(db, doc)
    new_chunks = [c for c in doc.chunks if c.page != 4] + [
        chunk(4, 0, "Variations: N 6 d_model 512 BLEU 25.8 (table re-read)", kind="table")
    ]
    replaced = doc.model_copy(update={"chunks": tuple(new_chunks), "parse_method": "adaptive"})
    index = PgKeywordIndex(db, doc, RetrievalConfig()).with_document(replaced)
    hits = index.search("variations", k=3, pages=frozenset({4})).hits
    assert [h.chunk.text for h in hits] == ["Variations: N 6 d_model 512 BLEU 25.8 (table re-read)"]


@pg
def test_fusion_toc_and_dense_work_unchanged_over_the_postgresql_retriever(db: PgDatabase, tmp_path: Path) -> None:
    doc = paper()
    store(db, doc)
    config = RetrievalConfig()
    pg_index = DocumentIndex(doc, _profile(doc), PgKeywordIndex(db, doc, config), config)
    whoosh = DocumentIndex(doc, _profile(doc), KeywordIndex.build(doc, tmp_path / "ix", config), config)
    for query in ("label smoothing", "Regularization types", "Table 3 model variations"):
        ours = pg_index.search(query, "fused", k=4, section_hint="5.4", use_dense=True)
        theirs = whoosh.search(query, "fused", k=4, section_hint="5.4", use_dense=True)
        assert ours.retriever == "fused" and ours.hits
        assert ours.hits[0].chunk.page == theirs.hits[0].chunk.page


@pg
def test_corpus_search_ranks_passages_of_every_document(db: PgDatabase) -> None:
    first = paper()
    second = document([["River turbidity was measured at twelve stations."]], doc_id="cd" * 32)
    store(db, first)
    store(db, second)
    hits = corpus_search(db, "turbidity stations", 5, RetrievalConfig())
    assert [h.doc_id for h in hits] == [second.doc_id] and hits[0].file_name == "test.pdf" and hits[0].highlight
    both = corpus_search(db, "turbidity dropout attention", 10, RetrievalConfig())
    assert {h.doc_id for h in both} == {first.doc_id, second.doc_id}
    assert [h.score for h in both] == sorted((h.score for h in both), reverse=True)
    assert corpus_search(db, "", 5, RetrievalConfig()) == []
