"""Exact highlights: a cited table row is boxed with its cells and nothing else, even when the chunk's own
boxes point at other rows; crops start and end on whole lines."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from engine.contracts import AnswerWithEvidence, Chunk, Citation, PageMark
from engine.present.boxes import CITED_PAGES, CitedPages, locate_quote, with_citation_boxes
from engine.present.render import _crop_rect, _mark_boxes
from engine.reading.generation import is_bare_header, without_bare_headers

LABEL = "Purchases of plant and equipment"
ROW = f"{LABEL} | (1,264) | (1,118) | (1,192)"


def _statement() -> tuple[bytes, dict[str, float], tuple[float, float, float, float]]:
    """A made-up cash-flow statement: a header row, 20 operating rows, then the investing rows. Labels
    and cells are written separately, as a typeset table is. Returns the PDF, each row's baseline and the
    box of the operating rows (where a mis-shared chunk would point)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = [("(Millions)", "2038", "2037", "2036")]
    rows += [(f"Operating item number {n}", f"{n},1{n % 10}0", f"({n}2)", f"{n}7") for n in range(20)]
    rows += [("Net cash provided by operating activities", "4,812", "4,530", "4,975")]
    rows += [("Cash Flows from Investing Activities", "", "", "")]
    rows += [(LABEL, "(1,264)", "(1,118)", "(1,192)"), ("Proceeds from sale of assets", "187", "36", "41")]
    rows += [("Purchases of plant and equipment in prior plan", "(12)", "(9)", "(4)")]
    baselines: dict[str, float] = {}
    y = 80.0
    for label, *cells in rows:
        page.insert_text((56, y), label, fontsize=9)
        for x, cell in zip((390, 455, 520), cells, strict=True):
            if cell:
                page.insert_text((x, y), cell, fontsize=9)
        baselines[label] = y
        y += 15
    operating = (50.0, 85.0, 560.0, baselines["Operating item number 19"] + 3)
    return doc.tobytes(), baselines, operating


@pytest.fixture(autouse=True)
def _no_kept_pages() -> None:
    """Each test starts with no cited page kept from another test's document (tests reuse the id "d")."""
    CITED_PAGES.clear()


def _rows_inside(box: tuple[float, float, float, float], page: pymupdf.Page) -> set[float]:
    """The rows (by rounded line centre) whose words' centres fall inside ``box``."""
    return {round((w[1] + w[3]) / 2) for w in page.get_text("words") if box[1] <= (w[1] + w[3]) / 2 <= box[3]}


def test_the_cited_row_is_boxed_with_its_cells_not_the_chunk_rows() -> None:
    pdf, baselines, operating = _statement()
    page = pymupdf.open(stream=pdf)[0]
    for boxes in (
        locate_quote(page, ROW, (operating,)),
        tuple(_mark_boxes(page, PageMark(quote=ROW, boxes=(operating,)))),
    ):
        assert len(boxes) == 1
        x0, y0, x1, y1 = boxes[0]
        assert y0 < baselines[LABEL] - 2 < y1 and y1 - y0 < 15  # the row, one line tall
        assert x0 < 60 and x1 > 530  # the label and its three cells
        assert len(_rows_inside(boxes[0], page)) == 1  # no other row


def test_the_row_whose_cells_match_wins_over_a_longer_label_holding_the_same_words() -> None:
    pdf, baselines, _ = _statement()
    page = pymupdf.open(stream=pdf)[0]
    (box,) = locate_quote(page, "Purchases of plant and equipment in prior plan | (12) | (9) | (4)")
    assert box[1] < baselines["Purchases of plant and equipment in prior plan"] - 2 < box[3]


def test_the_run_record_carries_the_boxes_every_reader_draws(tmp_path: Path) -> None:
    pdf, baselines, operating = _statement()
    chunk = Chunk(chunk_id="d:p1:b1", doc_id="d", page=1, index=1, text=ROW, bboxes=(operating,))
    cited = AnswerWithEvidence(text="1,264", citations=(Citation(chunk_id="d:p1:b1", doc_id="d", page=1, quote=ROW),))
    (citation,) = with_citation_boxes(cited, [chunk], lambda _: pdf).citations
    assert len(citation.boxes) == 1 and citation.boxes[0][1] < baselines[LABEL] - 2 < citation.boxes[0][3]
    assert "boxes" in citation.model_dump(mode="json")


def test_quotes_of_one_page_read_its_text_once_and_are_boxed_as_each_alone(monkeypatch) -> None:
    pdf, _, operating = _statement()
    quotes = [ROW, "Proceeds from sale of assets | 187 | 36 | 41", "Net cash provided by operating activities",
              "Purchases of plant and equipment in prior plan | (12) | (9) | (4)"]  # fmt: skip
    chunk = Chunk(chunk_id="d:p1:b1", doc_id="d", page=1, index=1, text=ROW, bboxes=(operating,))
    cited = AnswerWithEvidence(text="x", citations=tuple(
        Citation(chunk_id="d:p1:b1", doc_id="d", page=1, quote=q) for q in quotes))  # fmt: skip
    made: list[int] = []
    textpage = pymupdf.Page.get_textpage
    monkeypatch.setattr(pymupdf.Page, "get_textpage", lambda page, *a, **k: made.append(1) or textpage(page, *a, **k))
    boxes = [c.boxes for c in with_citation_boxes(cited, [chunk], lambda _: pdf).citations]
    assert len(made) == 2, "one search text page and one word list for the four quotes"
    monkeypatch.setattr(pymupdf.Page, "get_textpage", textpage)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert boxes == [locate_quote(page, q, (operating,)) for q in quotes] and all(boxes)


def test_an_unreadable_document_keeps_the_chunk_boxes_out_and_the_answer_intact() -> None:
    cited = AnswerWithEvidence(text="x", citations=(Citation(chunk_id="c", doc_id="d", page=1, quote="x"),))

    def missing(_: str) -> bytes:
        raise FileNotFoundError("gone")

    (citation,) = with_citation_boxes(cited, [], missing).citations
    assert citation.boxes == ()


def test_a_crop_starts_and_ends_on_whole_lines() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for n in range(30):
        page.insert_text((50, 60 + 22 * n), f"Body line number {n} about nothing", fontsize=11)
    page.insert_text((50, 411), "Revenue grew to 4.6 million", fontsize=11)
    (box,) = locate_quote(page, "Revenue grew to 4.6 million")
    clip = _crop_rect(page, [pymupdf.Rect(box)])
    assert clip is not None
    for word in page.get_text("words"):
        assert not word[1] < clip.y0 < word[3], f"the crop's top cuts {word[4]!r}"
        assert not word[1] < clip.y1 < word[3], f"the crop's bottom cuts {word[4]!r}"


def test_the_capex_row_of_a_real_filing_is_boxed_alone(shared_dir: Path) -> None:
    path = shared_dir / "corpus" / "filings" / "3M_2018_10K.pdf"
    if not path.is_file():
        pytest.skip("the 3M 2018 10-K is not in ../shared/corpus/filings")
    page = pymupdf.open(path)[59]
    # the quote is the capex row as the page prints it: the test names none of the filing's figures
    words = page.get_text("words")
    (marker,) = [w for w in words if w[4] == "(PP&E)" and w[0] < 300]
    centre = (marker[1] + marker[3]) / 2
    cells = [w[4] for w in sorted(words) if abs((w[1] + w[3]) / 2 - centre) < 2 and re.fullmatch(r"\(\d[\d,]*\)", w[4])]
    assert len(cells) == 3, cells
    quote = " | ".join(["Purchases of property, plant and equipment (PP&E)", *cells])
    operating_rows = (56.0, 60.0, 541.0, 250.0)  # where the mis-shared chunk boxes pointed
    (box,) = _mark_boxes(page, PageMark(quote=quote, boxes=(operating_rows,)))
    row = [w for w in words if box[1] <= (w[1] + w[3]) / 2 <= box[3]]
    assert {w[4] for w in row} >= {"Purchases", "(PP&E)", *cells}
    assert len(_rows_inside(box, page)) == 1


@pytest.mark.parametrize(
    "quote",
    [
        "(Millions) | 2038 | 2037 | 2036 | 2038 | 2037",
        "(in thousands, except per share) | FY2020 | FY2019",
        "$ | 2021 |",
    ],
)
def test_a_bare_header_row_is_not_a_supporting_passage(quote: str) -> None:
    answer = AnswerWithEvidence(
        text="x",
        citations=(
            Citation(chunk_id="a", doc_id="d", page=1, quote="Net sales | 1,200 | 1,100"),
            Citation(chunk_id="b", doc_id="d", page=2, quote=quote, role="support"),
            Citation(chunk_id="c", doc_id="d", page=3, quote="Sales rose in every region", role="support"),
        ),
    )
    kept = without_bare_headers(answer).citations
    assert [c.chunk_id for c in kept] == ["a", "c"]


def test_a_row_with_an_item_or_a_value_stays() -> None:
    assert not is_bare_header("Research and development | 1,540 | 1,575")
    assert not is_bare_header("(Millions) | 2038 | 1,264")


def _one_line(text: str) -> bytes:
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((56, 80), text, fontsize=9)
    return doc.tobytes()


def test_a_page_cited_again_is_boxed_from_its_kept_text_alike(monkeypatch) -> None:
    pdf, _, operating = _statement()
    chunk = Chunk(chunk_id="d:p1:b1", doc_id="d", page=1, index=1, text=ROW, bboxes=(operating,))
    first = AnswerWithEvidence(text="x", citations=(Citation(chunk_id="d:p1:b1", doc_id="d", page=1, quote=ROW),))
    again = AnswerWithEvidence(text="y", citations=(
        Citation(chunk_id="d:p1:b1", doc_id="d", page=1, quote="Proceeds from sale of assets | 187 | 36 | 41"),))  # fmt: skip
    kept = [with_citation_boxes(a, [chunk], lambda _: pdf).citations[0].boxes for a in (first, again)]
    made: list[int] = []
    textpage = pymupdf.Page.get_textpage
    monkeypatch.setattr(pymupdf.Page, "get_textpage", lambda page, *a, **k: made.append(1) or textpage(page, *a, **k))
    assert with_citation_boxes(first, [chunk], lambda _: pdf).citations[0].boxes == kept[0]
    assert not made, "the page's text was kept from the first answer"
    CITED_PAGES.clear()
    fresh = [with_citation_boxes(a, [chunk], lambda _: pdf).citations[0].boxes for a in (first, again)]
    assert made and fresh == kept and all(kept)


def test_a_document_whose_bytes_changed_is_read_anew() -> None:
    quote = "Net cash provided by operating activities"
    cited = AnswerWithEvidence(text="x", citations=(Citation(chunk_id="c", doc_id="d", page=1, quote=quote),))
    found = with_citation_boxes(cited, [], lambda _: _one_line(quote)).citations[0].boxes
    elsewhere = with_citation_boxes(cited, [], lambda _: _one_line(f"Other words first. {quote}")).citations[0].boxes
    assert found and elsewhere and found != elsewhere
    assert with_citation_boxes(cited, [], lambda _: _one_line("Nothing of it here")).citations[0].boxes == ()


def test_the_kept_pages_are_bounded_least_recently_cited_first_out() -> None:
    pages = CitedPages(max_documents=2, max_pages=1)
    docs = {name: _one_line(f"Document {name}") for name in "abc"}
    with pages.lock:
        for name in "abc":
            pages.open(name, docs.__getitem__)
            assert pages.page(name, 1) is not None and pages.page(name, 2) is None
        assert pages.page("a", 1) is None, "the first document went out when the third came in"
        first = pages.page("c", 1)
        assert first is not None and pages.page("c", 1) is first
