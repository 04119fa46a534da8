"""Which pages a value question reads whole: for a count, the pages that state a number of the things counted."""

from __future__ import annotations

from types import SimpleNamespace

from engine.contracts import Chunk
from engine.run.value_pages import _counting_pages


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
