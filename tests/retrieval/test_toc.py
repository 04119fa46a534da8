from __future__ import annotations

import pytest

from engine.retrieval.toc import _title_number, find_sections, parse_number_hint, title_words, toc_search

from .factories import document, paper, toc_entry


def filing():
    pages = [
        [("Item 7. Management's Discussion", "heading", ())],
        ["MD&A body text about revenue."],
        [("Item 7A. Quantitative Disclosures", "heading", ())],
        [("Note 12 — Leases", "heading", ())],
        ["Lease body"],
        [("Chapter 2 Methods", "heading", ())],
    ]
    toc = [
        toc_entry(1, "Item 7. Management's Discussion and Analysis", 1, 2),
        toc_entry(1, "Item 7A. Quantitative and Qualitative Disclosures About Market Risk", 3, 3, "7A"),
        toc_entry(1, "Notes to Financial Statements", 4, 5),
        toc_entry(2, "Note 12 — Leases", 4, 5, "12"),
        toc_entry(1, "Chapter 2 Methods", 6, 6),
    ]
    return document(pages, toc)


@pytest.mark.parametrize(
    ("hint", "title"),
    [
        ("5.4", "Regularization"),
        ("Section 5.4", "Regularization"),
        ("§ 5.4", "Regularization"),
        ("sec. 6.2", "Model Variations"),
        ("Appendix B", "Appendix B Attention Visualizations"),
        ("regularization", "Regularization"),
        ("the model variations", "Model Variations"),
    ],
)
def test_find_sections_by_number_and_title(hint, title):
    found = find_sections(paper(), hint)
    assert found and found[0].title == title


@pytest.mark.parametrize(
    ("hint", "title"),
    [
        ("Item 7", "Item 7. Management's Discussion and Analysis"),
        ("ITEM 7A", "Item 7A. Quantitative and Qualitative Disclosures About Market Risk"),
        ("Note 12", "Note 12 — Leases"),
        ("Chapter 2", "Chapter 2 Methods"),
    ],
)
def test_find_sections_filing_style(hint, title):
    found = find_sections(filing(), hint)
    assert [e.title for e in found] == [title]


def test_item_7_does_not_match_7a_and_unknown_is_empty():
    assert all("7A" not in e.title for e in find_sections(filing(), "Item 7"))
    assert find_sections(paper(), "9.9") == ()
    assert find_sections(paper(), "") == ()
    assert find_sections(paper(), "zebra unicorn") == ()


def test_number_from_heading_chunk_when_outline_has_no_numbers():
    doc = paper()
    doc = doc.model_copy(update={"toc": tuple(e.model_copy(update={"number": None}) for e in doc.toc)})
    found = find_sections(doc, "5.4")
    assert found and found[0].title == "Regularization" and found[0].start_page == 2


def test_parse_number_hint():
    assert parse_number_hint("Section 3.2") == ("section", "3.2")
    assert parse_number_hint("5.4") == (None, "5.4")
    assert parse_number_hint("Item 7A") == ("item", "7A")
    assert parse_number_hint("what does section 3.2 say") == ("section", "3.2")
    assert parse_number_hint("regularization") is None


def test_title_words_folds_plurals_and_drops_numbers():
    assert title_words("5.4 Regularizations") == {"regularization"}
    assert title_words("Layers of the network") == {"layer", "network"}


def test_toc_search_with_hint_returns_heading_then_body_in_order():
    ranked = toc_search(paper(), "what regularization", 10, section_hint="5.4")
    assert ranked.retriever == "toc"
    texts = [h.chunk.text for h in ranked.hits]
    assert texts[0] == "5.4 Regularization"  # heading first, earlier chunks of the start page skipped
    assert texts[1].startswith("We employ three types")
    assert any(t.startswith("Residual Dropout") for t in texts)  # the section runs onto the next page
    assert all(h.chunk.page in (2, 3) for h in ranked.hits)
    assert [h.rank for h in ranked.hits] == list(range(1, len(texts) + 1))


def test_toc_search_by_query_words_and_k():
    ranked = toc_search(paper(), "model variations", 2)
    assert len(ranked.hits) == 2 and ranked.hits[0].chunk.page == 4
    assert toc_search(paper(), "zebra", 5).hits == ()
    assert toc_search(paper(), "model variations", 0).hits == ()
    assert toc_search(document([["no toc"]]), "no toc", 5).hits == ()


def test_toc_search_uses_section_path_when_tagged():
    pages = [
        [("Intro", "heading", ()), ("intro body", "text", (), ("Intro",))],
        [
            ("Methods", "heading", ()),
            ("method body", "text", (), ("Methods",)),
            ("trailing intro note", "text", (), ("Intro",)),
        ],
    ]
    doc = document(pages, [toc_entry(1, "Intro", 1, 2), toc_entry(1, "Methods", 2, 2)])
    ranked = toc_search(doc, "q", 10, section_hint="intro")
    assert [h.chunk.text for h in ranked.hits] == ["Intro", "intro body", "trailing intro note"]


def test_a_title_joins_search_only_when_the_query_covers_it():
    from engine.contracts import TocEntry
    from engine.retrieval.toc import has_strong_title_match

    toc = [TocEntry(level=1, title="5.4 Regularization", start_page=7, end_page=8),
           TocEntry(level=1, title="Consolidated Statements of Cash Flows", start_page=60, end_page=60),
           TocEntry(level=1, title="Results of Operations and Financial Condition", start_page=20, end_page=30)]  # fmt: skip
    assert has_strong_title_match(toc, "which regularization is used")  # every title word
    assert has_strong_title_match(toc, "cash flows statements of the group")  # 3 of 4 words
    assert not has_strong_title_match(toc, "results of the survey")  # 1 of 4 words
    assert not has_strong_title_match(toc, "")


def test_a_title_s_number_is_read_alike_when_read_again():
    titles = ["4.2 Results", "Item 7A. Controls", "Results", "4.2 Results"]
    assert [_title_number(t) for t in titles] == ["4.2", "7A", None, "4.2"]
    assert [_title_number.__wrapped__(t) for t in titles] == ["4.2", "7A", None, "4.2"]
