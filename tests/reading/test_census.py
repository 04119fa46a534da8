"""A census question ("how many figures are in the appendix?") and the labels a document captions."""

from __future__ import annotations

import pytest

from engine.contracts import ParsedDocument, TocEntry
from engine.reading.census import CensusAsk, appendix_start, asked_census, scope_pages, take_census
from tests.retrieval.factories import document


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How many figures are included in the Appendix of the report? Answer as an integer.",
            CensusAsk("Figure", "appendix"),
        ),
        ("How many appendices does the manual contain?", CensusAsk("Appendix", None)),
        ("How many appendixes does the report have?", CensusAsk("Appendix", None)),
        ("What is the number of tables in the report?", CensusAsk("Table", None)),
        ("According to the report, how many exhibits are there?", CensusAsk("Exhibit", None)),
        ("How many tables are in Section 3?", CensusAsk("Table", "Section 3")),
        ("How many figures are in Appendix B?", CensusAsk("Figure", "Appendix B")),
        ("How many figures does this report contain from Page 4 to Page 12?", CensusAsk("Figure", "pages 4-12")),
        ("How many tables are there between pages 4 and 9?", CensusAsk("Table", "pages 4-9")),
        ("How many tables are on pages 2 and 5?", CensusAsk("Table", "pages 2,5")),  # two pages, no range
        # a filter on the elements is no census: which figures show a decline is read, not counted
        ("How many figures show a decline in sales?", None),
        ('How many tables include "BLEU" as a metric?', None),
        ("How many Exhibits are cited in the filing?", None),
        ("How many tables does the cafe have on its terrace?", None),
        ("How many employees are there?", None),
    ],
)
def test_asked_census(question: str, expected: CensusAsk | None) -> None:
    assert asked_census(question) == expected


def _doc(chunks: list[tuple[int, str, str]], toc: tuple[TocEntry, ...] = (), pages: int = 6) -> ParsedDocument:
    """A document of ``pages`` pages holding (page, kind, text) chunks."""
    return document([[(t, k, ()) for p, k, t in chunks if p == n] for n in range(1, pages + 1)], toc=toc)


PAPER = _doc([
    (1, "heading", "1 Introduction"),
    (1, "text", "Figure 1: The pipeline.\nAs Figure 2 shows, the model improves."),
    (2, "text", "Figure 2. Accuracy by size.\nTable 1: Results on three datasets."),
    (3, "heading", "References"),
    (3, "text", "Smith, J. (2020). Figure 9 in a cited title."),
    (4, "heading", "A Annotation Procedure"),
    (4, "text", "Figure 3 shows the interface, which Figure 4 details."),
    (5, "text", "Figure 3: The annotation interface.\nFigure 4a: Left panel.\nFigure 4b: Right panel."),
    (6, "text", "Table 2: Error cases."),
])  # fmt: skip


def test_captions_are_counted_and_mentions_are_not() -> None:
    items = take_census(PAPER, "Figure", range(1, 7))
    assert [(i.label.split(":")[0].split(".")[0], i.page) for i in items] == [
        ("Figure 1", 1), ("Figure 2", 2), ("Figure 3", 5), ("Figure 4a", 5)
    ]  # fmt: skip
    assert all(i.marker == "caption" for i in items)


def test_a_papers_lettered_appendix_starts_after_its_references() -> None:
    assert appendix_start(PAPER) == 4
    assert scope_pages(PAPER, "appendix") == (4, 5, 6)
    assert [i.page for i in take_census(PAPER, "Figure", scope_pages(PAPER, "appendix"))] == [5, 5]
    assert [i.page for i in take_census(PAPER, "Table", scope_pages(PAPER, "appendix"))] == [6]


def test_appendix_headings_are_counted_once_and_a_contents_line_is_not_one() -> None:
    report = _doc([
        (1, "text", "Contents\nAppendix A: Participants ........ 7\nAppendix B: Schedule ........ 9"),
        (2, "heading", "Appendix A"),
        (3, "heading", "Appendix B Appendix B"),
        (4, "text", "The schedule (see Appendix B) was met."),
    ])  # fmt: skip
    assert [(i.label, i.page) for i in take_census(report, "Appendix", range(1, 7))] == [
        ("Appendix A", 2), ("Appendix B", 3)
    ]  # fmt: skip
    assert appendix_start(report) == 2


def test_a_named_scope_the_document_lacks_counts_nothing() -> None:
    toc = (TocEntry(level=1, title="3 Results", start_page=2, end_page=2),)
    doc = _doc([(2, "text", "Table 1: Results.")], toc=toc)
    assert scope_pages(doc, "Section 3") == (2,)
    assert scope_pages(doc, "Section 7") == ()
    assert scope_pages(_doc([(1, "text", "No appendix here.")]), "appendix") == ()
    assert scope_pages(doc, "pages 2-4") == (2, 3, 4) and scope_pages(doc, "pages 2,5") == (2, 5)
    assert scope_pages(doc, "pages 100-120") == (), "pages the document lacks"
