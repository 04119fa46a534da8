"""Retrieval over real parses: generated PDFs (tests/pdfs.py) and, when present, the shared corpus."""

from __future__ import annotations

import pytest

from engine.config import EngineConfig
from engine.documents.parsing import parse_pdf
from engine.retrieval.cache import RetrievalCache
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex
from engine.retrieval.listing import aggregate_listing, section_pages_for
from engine.retrieval.toc import find_sections, toc_search
from engine.retrieval.two_hop import reference_hits, resolve_reference
from tests import pdfs

from .test_index import profile_of

CONFIG = EngineConfig()


def make_index(doc, tmp_path):
    keyword = KeywordIndex.build(doc, tmp_path / "ix", CONFIG.retrieval)
    return DocumentIndex(doc, profile_of(doc), keyword, CONFIG.retrieval, RetrievalCache(16))


def parse(data, name="t.pdf"):
    return parse_pdf(data, name, CONFIG)


def test_outline_pdf_keyword_toc_and_reopen(tmp_path):
    doc = parse(pdfs.pdf_with_outline())
    index = make_index(doc, tmp_path)
    assert index.search("forty thousand annotated documents", "keyword").hits[0].chunk.page == 2
    assert index.search("three days accelerators").hits[0].chunk.page == 3
    found = find_sections(doc, "2.2")
    assert found and "Training" in found[0].title
    ranked = toc_search(doc, "", 5, section_hint="Section 2.2")
    assert ranked.hits and ranked.hits[0].chunk.page == 3
    reopened = KeywordIndex.open(tmp_path / "ix", doc, CONFIG.retrieval)
    assert reopened.search("accelerators", 1).hits[0].chunk.page == 3


def test_table_pdf_two_hop(tmp_path):
    doc = parse(pdfs.pdf_with_table())
    assert resolve_reference(doc, "Table 3") == 2  # page 1 only cites it
    ranked = reference_hits(make_index(doc, tmp_path), "Table 3")
    assert ranked.hits and {h.chunk.page for h in ranked.hits} == {2}
    assert ranked.hits[0].chunk.text.lstrip().startswith("Table 3")


def test_heading_at_page_foot_spans_next_page():
    doc = parse(pdfs.pdf_heading_at_page_foot(with_outline=True))
    ranked = toc_search(doc, "method", 6, section_hint="2")
    assert any("method body continues" in h.chunk.text for h in ranked.hits)


def test_listing_pdf_finds_all_three_items():
    doc = parse(pdfs.pdf_listing())
    pages = section_pages_for(doc, ["regularization"], "5.4")
    assert 1 in pages
    result = aggregate_listing(doc, pages, ["regularization"])
    assert result.expected_count == 3
    assert [i.label for i in result.items] == ["Residual Dropout", "Label Smoothing", "Attention Dropout"]
    assert result.count_matches is True


# ---- the shared corpus (skipped when ../shared is absent) -------------------------------------


@pytest.fixture(scope="module")
def attention_doc():
    from tests.conftest import SHARED_DIR

    path = SHARED_DIR / "corpus" / "papers" / "attention_is_all_you_need.pdf"
    if not path.exists():
        pytest.skip("../shared/corpus is not available on this machine")
    return parse_pdf(path.read_bytes(), path.name, CONFIG)


def test_attention_paper_realistic(shared_dir, attention_doc, tmp_path):
    doc = attention_doc
    index = make_index(doc, tmp_path)
    assert 8 in [h.chunk.page for h in index.search("label smoothing", "keyword", k=3).hits]
    assert index.search("label smoothing").hits[0].chunk.page in (7, 8)
    assert resolve_reference(doc, "Table 3") == 9
    assert resolve_reference(doc, "Table 2") == 8
    found = find_sections(doc, "5.4")
    assert found and "Regularization" in found[0].title


def test_attention_paper_listing(shared_dir, attention_doc):
    pages = section_pages_for(attention_doc, ["regularization"], None)
    assert 7 in pages or 8 in pages
    result = aggregate_listing(attention_doc, pages, ["regularization"])
    assert result.expected_count == 3
    labels = [i.label.lower() for i in result.items]
    assert "residual dropout" in labels and "label smoothing" in labels
