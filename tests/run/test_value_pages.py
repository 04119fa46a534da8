"""Which pages a value question reads whole: for a count, the pages that state a number of the things counted;
what a whole page gives is read once per page of the document."""

from __future__ import annotations

from types import SimpleNamespace

from engine.contracts import Chunk, EvidenceItem
from engine.reading.grouped_tables import grouped_tables
from engine.reading.loose_tables import loose_tables
from engine.retrieval.index import DocumentMemo
from engine.run import extreme_reader
from engine.run.value_pages import _counting_pages, kept_per_page


def _chunk(page: int, text: str) -> Chunk:
    return Chunk(chunk_id=f"d:p{page}:b0", doc_id="d", page=page, index=0, text=text, bboxes=())


def test_a_count_question_reads_the_pages_stating_a_number_of_the_things_counted() -> None:
    state = SimpleNamespace(parsed=SimpleNamespace(original_question="How many employees did Acme have in 2031?"))
    chunks = [
        _chunk(3, "Accrued employee compensation | 40 | 38"),
        _chunk(9, "At year end Acme had approximately 4,250 employees worldwide."),
        _chunk(5, "We run 12 regional employees' clubs."),  # a modifier between number and noun
        _chunk(7, "Employees are our strength."),
    ]
    assert _counting_pages(state, chunks, None) == [("d", 9), ("d", 5)]  # type: ignore[arg-type]
    state.parsed.original_question = "What were Acme's net sales in 2031?"
    assert _counting_pages(state, chunks, None) == []  # type: ignore[arg-type]


def _page(page: int, text: str) -> list[EvidenceItem]:
    return [EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="d.pdf", page=page, text=text)]


def test_what_a_whole_page_gives_is_read_once_per_page_of_the_document() -> None:
    index = SimpleNamespace(memo=DocumentMemo())
    reads: list[int] = []

    def read(page: list[EvidenceItem]) -> list[str]:
        reads.append(page[0].page)
        return [page[0].text.upper()]

    first, other = _page(3, "Kayaks | 12 | 14"), _page(4, "Canoes | 7 | 9")
    assert kept_per_page(index, first, "upper", lambda: read(first)) == ["KAYAKS | 12 | 14"]  # type: ignore[arg-type]
    assert kept_per_page(index, first, "upper", lambda: read(first)) == ["KAYAKS | 12 | 14"]  # type: ignore[arg-type]
    assert kept_per_page(index, other, "upper", lambda: read(other)) == ["CANOES | 7 | 9"]  # type: ignore[arg-type]
    assert kept_per_page(index, first, "lower", lambda: [first[0].text.lower()]) == ["kayaks | 12 | 14"]  # type: ignore[arg-type]
    assert reads == [3, 4], "each page read once; another name is another value"


LOOSE = "Method | Lakes | Rivers\nSplit | R@1 F1 R@1 F1\nBaseline 0.41 0.62 0.30 0.55\nHeron-S 0.44 0.61 0.33 0.57"


def test_a_page_s_loose_tables_are_kept_as_read(monkeypatch) -> None:
    index = SimpleNamespace(memo=DocumentMemo())
    state = SimpleNamespace(layer1_index_of=lambda doc_id: index)
    page, other = _page(3, LOOSE), _page(5, LOOSE.replace("Heron-S", "Osprey"))
    expected = loose_tables(page) + grouped_tables(page)
    read: list[int] = []
    monkeypatch.setattr(extreme_reader, "loose_tables", lambda items: read.append(items[0].page) or loose_tables(items))
    kept = [extreme_reader._loose_tables(state, p) for p in (page, page, other)]  # type: ignore[arg-type]
    assert kept[0] == kept[1] == expected and expected
    assert kept[2] == loose_tables(other) + grouped_tables(other) != expected
    assert read == [3, 5]
    kept[0].append([])  # a reader's list is its own
    assert extreme_reader._loose_tables(state, page) == expected  # type: ignore[arg-type]
