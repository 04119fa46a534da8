from __future__ import annotations

import pytest

from engine.config import RetrievalConfig
from engine.retrieval.cache import RetrievalCache
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex
from engine.retrieval.two_hop import canonical_reference, reference_hits, resolve_reference

from .factories import document, paper, toc_entry
from .test_index import profile_of


@pytest.mark.parametrize(
    ("ref", "page"),
    [
        ("Table 3", 4),
        ("Table 2", 3),
        ("table 3", 4),
        ("see Table 3", 4),
        ("Tab. 3", 4),
        ("Section 5.4", 2),
        ("Appendix B", 5),
        ("Section 6.2", 4),
    ],
)
def test_resolve_reference_on_paper(ref, page):
    assert resolve_reference(paper(), ref) == page


def test_caption_page_not_the_page_that_mentions_it():
    # page 1 and page 4 both mention "Table 3" mid-sentence; only page 4 holds the caption
    assert resolve_reference(paper(), "Table 3") == 4


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Table 7. Results by year", "text"),
        ("TABLE 7 RESULTS BY YEAR", "text"),
        ("Table 7: results", "text"),
        ("Figure 7: The architecture", "caption"),
        ("Fig. 7 The architecture", "caption"),
    ],
)
def test_caption_styles(text, kind):
    ref = "Figure 7" if text.lower().startswith("fig") else "Table 7"
    doc = document([["As Table 7 and Figure 7 show, prices rose."], ["filler"], [(text, kind, ())]])
    assert resolve_reference(doc, ref) == 3


def test_exact_label_and_line_fallback_and_missing():
    doc = document([["Table 31: other"], ["Table 3.1: sub"], ["Intro line\nTable 3: the real caption"]])
    assert resolve_reference(doc, "Table 3") == 3
    assert resolve_reference(doc, "Table 31") == 1
    assert resolve_reference(doc, "Table 9") is None
    assert resolve_reference(doc, "nonsense") is None


def test_list_of_tables_line_is_skipped():
    doc = document([["Table 3. Variations ........................ 9"], ["Table 3. Variations of the model"]])
    assert resolve_reference(doc, "Table 3") == 2


def test_item_and_note_headings_without_toc():
    doc = document(
        [
            ["Refer to Item 7 and Note 12 for details."],
            [("ITEM 7. MANAGEMENT'S DISCUSSION", "heading", ())],
            [("Item 7A. Market risk", "heading", ())],
            [("Note 12 — Leases", "text", ())],
        ]
    )
    assert resolve_reference(doc, "Item 7") == 2
    assert resolve_reference(doc, "Item 7A") == 3
    assert resolve_reference(doc, "Note 12") == 4


def test_section_from_toc_entry():
    doc = document([["x"], ["y"], ["z"]], [toc_entry(1, "Leases", 3, 3, "12"), toc_entry(1, "Other", 2, 2, "11")])
    assert resolve_reference(doc, "Section 12") == 3


def test_canonical_reference():
    assert canonical_reference("see Tab. 3") == ("Table", "3")
    assert canonical_reference("Figs. 2") == ("Figure", "2")


def test_reference_hits_puts_caption_and_table_first(tmp_path):
    doc = paper()
    cfg = RetrievalConfig()
    index = DocumentIndex(doc, profile_of(doc), KeywordIndex.build(doc, tmp_path / "i", cfg), cfg, RetrievalCache(0))
    ranked = reference_hits(index, "Table 3")
    assert ranked.retriever == "two_hop" and ranked.query == "Table 3"
    assert ranked.hits[0].chunk.text.startswith("Table 3:")
    assert ranked.hits[1].chunk.kind == "table"
    assert {h.chunk.page for h in ranked.hits} == {4}
    assert [h.rank for h in ranked.hits] == list(range(1, len(ranked.hits) + 1))
    assert len(reference_hits(index, "Table 3", k=1).hits) == 1
    assert reference_hits(index, "Table 99").hits == ()


def test_a_chapter_numbered_label_names_its_own_table_and_a_plural_names_a_range():
    from engine.documents.text import find_references

    assert find_references("Table 6-2 lists the operations; see Figure 3\u20131") == ("Table 6-2", "Figure 3-1")
    assert find_references("the row shaded green in Table1-1") == ("Table 1-1",)
    assert find_references("Tables 1-3 and Notes 4\u20136") == ("Table 1", "Note 4"), "a range names its first"
    doc = document([["Table 6: summary"], ["Table 6-1 Permissions"], ["Table 6-2 Common operations"]])
    assert resolve_reference(doc, "Table 6-2") == 3, "not Table 6's page, not Table 6-1's"
