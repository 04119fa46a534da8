"""Tests of engine.documents.parsing (layer-1 parse, validation, adaptive re-parse)."""

from __future__ import annotations

import pymupdf
import pytest

from engine.config import EngineConfig, LibraryConfig, ParsingConfig
from engine.contracts import ParsedDocument
from engine.documents.layout import join_lines, section_number
from engine.documents.outline import clean_outline
from engine.documents.parsing import open_pdf, parse_pdf, reparse_pages
from engine.errors import DocumentTooLargeError, EncryptedPdfError, NotAPdfError, NoTextLayerError
from tests import pdfs


@pytest.fixture(scope="module")
def outline_doc() -> ParsedDocument:
    return parse_pdf(pdfs.pdf_with_outline(), "outline.pdf", EngineConfig())


def _chunk(doc: ParsedDocument, needle: str):
    found = [c for c in doc.chunks if needle in c.text]
    assert found, f"no chunk contains {needle!r}"
    return found[0]


# ---------------------------------------------------------------- validation and errors


@pytest.mark.parametrize(
    ("data", "error", "words"),
    [
        (b"", NotAPdfError, "empty"),
        (pdfs.not_a_pdf(), NotAPdfError, "not a PDF"),
        (pdfs.truncated_pdf(), NotAPdfError, "truncated"),
        (b"%PDF-1.7\n" + b"garbage " * 50, NotAPdfError, "download or export it again"),
        (pdfs.pdf_encrypted(), EncryptedPdfError, "remove the password and upload it again"),
    ],
    ids=["empty", "not-pdf", "truncated", "corrupt", "encrypted"],
)
def test_open_pdf_rejects_bad_input_with_actionable_message(data, error, words):
    with pytest.raises(error) as info:
        open_pdf(data, LibraryConfig())
    assert words in str(info.value)


def test_encrypted_message_is_exact():
    with pytest.raises(EncryptedPdfError, match=r"^this PDF is password-protected; remove the password"):
        parse_pdf(pdfs.pdf_encrypted(), "x.pdf", EngineConfig())


def test_too_many_pages_and_too_many_megabytes():
    data = pdfs.pdf_with_outline()
    with pytest.raises(DocumentTooLargeError, match="4 pages, over the 3-page limit"):
        open_pdf(data, LibraryConfig(max_pages=3))
    with pytest.raises(DocumentTooLargeError, match="MB limit"):
        open_pdf(data, LibraryConfig(max_file_mb=0.001))
    assert open_pdf(data, LibraryConfig(max_pages=4)).page_count == 4


def test_scanned_pdf_raises_no_text_layer():
    with pytest.raises(NoTextLayerError, match=r"no text layer.*ocrmypdf"):
        parse_pdf(pdfs.pdf_scanned(), "scan.pdf", EngineConfig())


def test_pdf_header_may_follow_leading_junk():
    data = b"\n" * 100 + pdfs.pdf_with_outline()
    assert open_pdf(data, LibraryConfig()).page_count == 4


# ---------------------------------------------------------------- text cleaning


def test_ligature_expanded(outline_doc):
    assert "the first paragraph" in outline_doc.pages[0].text
    assert not any(ch in c.text for c in outline_doc.chunks for ch in "\ufb00\ufb01\ufb02\ufb03\ufb04")


def test_hyphenated_line_break_joined(outline_doc):
    chunk = _chunk(outline_doc, "regularization")
    assert "weight regularization to all layers" in chunk.text
    assert "regular-" not in chunk.text


def test_join_lines_keeps_real_hyphens():
    assert join_lines(["state-", "of-the-art"]) == "stateof-the-art"
    assert join_lines(["well-", "Known"]) == "well- Known"
    assert join_lines(["a 5-", "7 range"]) == "a 5- 7 range"


def test_running_header_and_footer_removed(outline_doc):
    assert pdfs.RUNNING_HEADER in outline_doc.repeated_lines
    assert any(line.startswith("Page ") for line in outline_doc.repeated_lines)
    for chunk in outline_doc.chunks:
        assert pdfs.RUNNING_HEADER not in chunk.text
        assert not chunk.text.startswith("Page ")


def test_repeated_lines_need_three_pages():
    doc = parse_pdf(pdfs.pdf_heading_at_page_foot(), "two.pdf", EngineConfig())
    assert doc.total_pages == 2 and doc.repeated_lines == ()


def test_chunk_ids_stable_and_well_formed(outline_doc):
    again = parse_pdf(pdfs.pdf_with_outline(), "outline.pdf", EngineConfig())
    assert [c.chunk_id for c in again.chunks] == [c.chunk_id for c in outline_doc.chunks]
    for chunk in outline_doc.chunks:
        assert chunk.chunk_id == f"{outline_doc.doc_id[:16]}:p{chunk.page}:b{chunk.index}"
        assert chunk.bboxes and all(b[2] > b[0] and b[3] > b[1] for b in chunk.bboxes)
    indexes = [(c.page, c.index) for c in outline_doc.chunks]
    assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)


# ---------------------------------------------------------------- kinds and bold terms


def test_bold_run_in_header_is_a_bold_term(outline_doc):
    chunk = _chunk(outline_doc, "Residual Dropout")
    assert chunk.kind == "text"
    assert chunk.bold_terms[0] == "Residual Dropout"


def test_listing_items_each_a_chunk_with_run_in_header():
    doc = parse_pdf(pdfs.pdf_listing(), "list.pdf", EngineConfig())
    firsts = [c.bold_terms[0] for c in doc.chunks if c.bold_terms]
    assert firsts == ["Residual Dropout", "Label Smoothing", "Attention Dropout"]
    cue = _chunk(doc, "three types of regularization")
    assert cue.section_path[-1] == "5.4 Regularization"


def test_caption_and_prose_reference_distinguished():
    doc = parse_pdf(pdfs.pdf_with_table(), "table.pdf", EngineConfig())
    assert _chunk(doc, "Table 3: Accuracy").kind == "caption"
    assert _chunk(doc, "results are in Table 3").kind == "text"
    assert not any(c.kind == "heading" and "Accuracy" in c.text for c in doc.chunks), "table header row"


def test_heading_kinds_from_bold_and_from_size(outline_doc):
    headings = [c.text for c in outline_doc.chunks if c.kind == "heading"]
    assert {"1 Introduction", "2 Methods", "2.1 Data", "3 Results"} <= set(headings)
    sized = parse_pdf(pdfs.pdf_no_outline_headings(), "h.pdf", EngineConfig())
    assert [c.text for c in sized.chunks if c.kind == "heading"] == [
        "Overview", "Installation", "Configuration", "Troubleshooting"
    ]  # fmt: skip


def test_heading_size_ratio_is_honoured():
    strict = EngineConfig(parsing=ParsingConfig(heading_size_ratio=2.0))
    doc = parse_pdf(pdfs.pdf_no_outline_headings(), "h.pdf", strict)
    assert not any(c.kind == "heading" for c in doc.chunks)
    assert doc.toc_source == "none" and doc.toc == ()


def test_long_blocks_split_and_tiny_blocks_merged():
    small = EngineConfig(parsing=ParsingConfig(max_chunk_chars=200))
    doc = parse_pdf(pdfs.pdf_with_outline(), "o.pdf", small)
    assert all(len(c.text) <= 200 for c in doc.chunks)
    merged = EngineConfig(parsing=ParsingConfig(min_chunk_chars=1000))
    big = parse_pdf(pdfs.pdf_with_outline(), "o.pdf", merged)
    texts = [c for c in big.chunks if c.kind == "text"]
    assert len(texts) < len([c for c in doc.chunks if c.kind == "text"])
    assert any("first paragraph" in c.text and "regularization" in c.text for c in texts)


# ---------------------------------------------------------------- table of contents


def test_outline_toc_numbers_and_ranges(outline_doc):
    assert outline_doc.toc_source == "outline"
    got = [(e.level, e.number, e.start_page, e.end_page) for e in outline_doc.toc]
    assert got == [(1, "1", 1, 2), (1, "2", 2, 4), (2, "2.1", 2, 3), (2, "2.2", 3, 4), (1, "3", 4, 4)]


def test_section_paths_follow_position(outline_doc):
    assert _chunk(outline_doc, "describes the methods").section_path == ("2 Methods",)
    assert _chunk(outline_doc, "forty thousand").section_path == ("2 Methods", "2.1 Data")
    assert _chunk(outline_doc, "three days").section_path == ("2 Methods", "2.2 Training")
    assert _chunk(outline_doc, "clear improvement").section_path == ("3 Results",)
    title = _chunk(outline_doc, "A Study of Structured")
    assert title.section_path == ()


@pytest.mark.parametrize(
    ("title", "number"),
    [("5.4 Regularization", "5.4"), ("Item 7.", "7"), ("Item 7A. Risk", "7A"), ("Appendix B", "B"),
     ("A.1 Proofs", "A.1"), ("Introduction", None), ("2019 was a year", None), ("Item 7.", "7"), ("A Survey", None),
     ("12 Angry Men", "12"), ("3D printing", None)],
)  # fmt: skip
def test_section_number(title, number):
    assert section_number(title) == number


def test_toc_from_headings_when_no_outline():
    doc = parse_pdf(pdfs.pdf_no_outline_headings(), "h.pdf", EngineConfig())
    assert doc.toc_source == "headings"
    assert [(e.title, e.start_page, e.end_page) for e in doc.toc] == [
        ("Overview", 1, 1), ("Installation", 1, 2), ("Configuration", 2, 3), ("Troubleshooting", 3, 3)
    ]  # fmt: skip
    assert _chunk(doc, "Settings live").section_path == ("Configuration",)


@pytest.mark.parametrize("with_outline", [False, True])
def test_heading_at_page_foot_spans_two_pages(with_outline):
    doc = parse_pdf(pdfs.pdf_heading_at_page_foot(with_outline), "foot.pdf", EngineConfig())
    method = next(e for e in doc.toc if e.number == "2")
    assert (method.start_page, method.end_page) == (1, 2)
    page2 = [c for c in doc.chunks if c.page == 2]
    assert page2[0].section_path == ("2 Method",)
    assert "body continues" in page2[0].text
    assert _chunk(doc, "summarised").section_path == ("3 Results",)


def test_malformed_outline_does_not_crash():
    doc = parse_pdf(pdfs.pdf_malformed_outline(), "bad.pdf", EngineConfig())
    assert doc.toc_source == "outline"
    assert [(e.title, e.start_page) for e in doc.toc] == [("1 Alpha", 1), ("2 Beta", 2), ("3 Gamma", 3)]
    assert all(1 <= e.start_page <= e.end_page <= 3 for e in doc.toc)
    assert _chunk(doc, "section 2 Beta").section_path == ("2 Beta",)


def test_clean_outline_clamps_and_drops_garbage():
    raw = [[1, "a", 0], [3, "b", 99], [1, "", 2], ["x", "y", "z"], [1, None, 2], [1, "  ***  ", 2], [2, "c", 2]]
    entries = clean_outline(raw, 5)
    assert [(e.level, e.title, e.page) for e in entries] == [(1, "a", 1), (2, "b", 5), (2, "c", 2)]


# ---------------------------------------------------------------- adaptive re-parse


def test_reparse_pages_emits_table_chunks():
    data = pdfs.pdf_with_table()
    doc = parse_pdf(data, "t.pdf", EngineConfig())
    new = reparse_pages(data, doc, [2], EngineConfig())
    assert new is not doc and doc.parse_method == "layer1" and new.parse_method == "adaptive"
    tables = [c for c in new.chunks if c.kind == "table"]
    assert len(tables) == 1
    assert tables[0].text.splitlines()[0] == "Method | Accuracy | Latency"
    assert "Ours | 78.9 | 15 ms" in tables[0].text
    assert tables[0].page == 2 and tables[0].section_path == ("2 Results",)
    page2 = [c for c in new.chunks if c.page == 2]
    assert [c.index for c in page2] == list(range(len(page2)))
    assert not any("Baseline 71.2" in c.text and c.kind != "table" for c in page2)
    assert any(c.kind == "caption" for c in page2) and any("most accurate" in c.text for c in page2)
    assert [c for c in new.chunks if c.page == 1] == [c for c in doc.chunks if c.page == 1]


def test_a_page_is_given_to_the_table_finder_once_per_process(monkeypatch):
    from engine.documents import parsing

    data = pdfs.pdf_with_table()
    doc = parse_pdf(data, "t.pdf", EngineConfig())
    first = reparse_pages(data, doc, [2], EngineConfig())
    monkeypatch.setattr(parsing, "_page_tables", lambda page: pytest.fail("the table finder ran again"))
    again = reparse_pages(data, doc, [2], EngineConfig())
    assert again.chunks == first.chunks
    assert reparse_pages(data, first, [2], EngineConfig()).chunks == first.chunks


def test_reparse_ignores_pages_out_of_range():
    data = pdfs.pdf_with_table()
    doc = parse_pdf(data, "t.pdf", EngineConfig())
    new = reparse_pages(data, doc, [0, 99], EngineConfig())
    assert new.chunks == doc.chunks and new.parse_method == "adaptive"


# ---------------------------------------------------------------- realistic (shared corpus)


def test_transformer_paper(shared_dir):
    data = (shared_dir / "corpus/papers/attention_is_all_you_need.pdf").read_bytes()
    doc = parse_pdf(data, "attention.pdf", EngineConfig())
    assert doc.total_pages == 15 and doc.toc_source == "outline" and len(doc.toc) == 22
    reg = next(e for e in doc.toc if e.number == "5.4")
    assert reg.title == "Regularization" and (reg.start_page, reg.end_page) == (7, 8)
    dropout = _chunk(doc, "We apply dropout")
    assert dropout.page == 8 and dropout.section_path == ("Training", "Regularization")
    assert dropout.bold_terms[0] == "Residual Dropout"
    assert "Residual Dropout" in dropout.text[:40]
    results = _chunk(doc, "On the WMT 2014 English-to-German translation task")
    assert results.section_path == ("Results", "Machine Translation")
    assert not any(c.text.strip() == "8" for c in doc.chunks), "page numbers are removed"


def test_ten_k_items_from_headings(shared_dir):
    data = (shared_dir / "corpus/filings/NETFLIX_2015_10K.pdf").read_bytes()
    doc = parse_pdf(data, "netflix.pdf", EngineConfig())
    assert doc.toc_source == "headings"
    items = {e.number: e for e in doc.toc if e.title.startswith("Item")}
    assert {"1A", "7", "7A", "8", "9A"} <= set(items)
    item7 = items["7"]
    assert item7.title.startswith("Item 7. Management") and item7.level == 2
    assert item7.start_page < item7.end_page <= items["7A"].start_page
    inside = [c for c in doc.chunks if item7.start_page < c.page < item7.end_page]
    assert inside and all(c.section_path[0].startswith("PART II") for c in inside[:5])
    assert all(c.section_path[1] == item7.title for c in inside[:5])
    assert "Table of Contents" in doc.repeated_lines


def test_a_page_whose_drawing_instructions_exceed_the_cap_is_refused_before_text_extraction():
    data = pdfs.pdf_with_table()
    tiny = EngineConfig(library=LibraryConfig(max_page_content_mb=0.0001))  # ~100 bytes per page
    with pytest.raises(DocumentTooLargeError, match="drawing instructions"):
        parse_pdf(data, "t.pdf", tiny)
    assert parse_pdf(data, "t.pdf", EngineConfig()).chunks


def test_a_wrapped_line_in_a_block_of_its_own_joins_the_item_it_continues():
    from engine.documents.layout import Unit, merge_tiny

    item = Unit(3, "• In version 2.0, label K means background and labels 0..K-1 correspond to the", [(0, 0, 1, 1)],
                "list_item")  # fmt: skip
    wrapped = Unit(3, "object categories of the dataset.", [(0, 2, 1, 3)])
    fresh = Unit(3, "The class order of the RPN head is unchanged in this release.", [(0, 4, 1, 5)])
    merged = merge_tiny([item, wrapped, fresh], min_chars=10)
    assert [u.text.split()[-1] for u in merged] == ["dataset.", "release."]
    assert merged[0].kind == "list_item" and len(merged[0].bboxes) == 2
    finished = Unit(3, "The first sentence ends here.", [(0, 0, 1, 1)])
    assert len(merge_tiny([finished, Unit(3, "lower-case start of a new block.", [(0, 2, 1, 3)])], 10)) == 2


def test_a_footer_printed_under_the_text_wherever_it_ends_is_a_running_footer() -> None:
    pdf = pymupdf.open()
    for n, lines in enumerate((12, 20, 8, 16), 1):
        page = pdf.new_page()
        y = 72
        for k in range(lines):
            page.insert_text(
                (72, y), f"Harbour levies rose on berth {k} of page {n} as the quay was rebuilt.", fontsize=10
            )
            y += 14
        page.insert_text((72, y + 20), f"Blue Ferry Annual Report 2041 | {n}", fontsize=9)  # well above the page foot
    doc = parse_pdf(pdf.tobytes(), "ferry.pdf", EngineConfig())
    assert any(line.startswith("Blue Ferry Annual Report") for line in doc.repeated_lines)
    assert not any("Blue Ferry Annual Report" in c.text for c in doc.chunks)
    assert any("berth 3 of page 2" in c.text for c in doc.chunks), "the body is kept"


def test_a_bold_line_of_figures_is_a_table_row_not_a_heading() -> None:
    from engine.documents.layout import figures_row

    assert figures_row("Lynx with tides 30.87% 23.50% 6.42% 19.20%")
    assert figures_row("Net margin (1.5) 2.75")
    assert not figures_row("3.2.1 Results on the 2031 survey")
    assert not figures_row("Table 4: Stops per 100 hours")
