"""A follow-up that names no document keeps the scope of the turn it continues (made-up documents)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine.contracts import ComparisonSide, PageRef
from engine.run.side_quota import follow_up_scope


def _index(doc_id: str, year: int) -> Any:
    cover = f"ANNUAL REPORT for the fiscal year ended December 31, {year}\n{doc_id.upper()} INC."
    pages = (SimpleNamespace(text=cover), SimpleNamespace(text=f"{doc_id.title()} Inc. makes sensors."))
    doc = SimpleNamespace(doc_id=doc_id, file_name=f"{doc_id.upper()}_{year}_10K.pdf", pages=pages, chunks=())
    return SimpleNamespace(doc=doc)


def _previous(cited: list[str], sides: tuple[ComparisonSide, ...] = ()) -> Any:
    pages = tuple(PageRef(doc_id=d, file_name=f"{d}.pdf", page=n) for n, d in enumerate(cited, 1))
    return SimpleNamespace(evidence_pages=pages, parsed_question=SimpleNamespace(sides=sides))


ACME, GLOBEX = _index("acme", 2029), _index("globex", 2031)


def _ids(indexes: list[Any]) -> list[str]:
    return [ix.doc.doc_id for ix in indexes]


def test_a_follow_up_naming_nothing_stays_with_the_previous_turns_document():
    scoped = follow_up_scope("What about the dividends?", [ACME, GLOBEX], [ACME, GLOBEX], _previous(["acme", "acme"]))
    assert _ids(scoped) == ["acme"]


def test_a_follow_up_naming_its_own_document_keeps_its_own_scope():
    assert _ids(follow_up_scope("What about Globex?", [ACME, GLOBEX], [GLOBEX], _previous(["acme"]))) == ["globex"]
    # naming both (one by its name, the other by a year only its report holds) is asking over both
    both = follow_up_scope("What were Acme's sales in 2031?", [ACME, GLOBEX], [ACME, GLOBEX], _previous(["acme"]))
    assert _ids(both) == ["acme", "globex"]


def test_a_follow_up_of_a_comparison_across_documents_keeps_them_all():
    sides = (
        ComparisonSide(label="Acme", query="capex", doc_id="acme"),
        ComparisonSide(label="Globex", query="capex", doc_id="globex"),
    )
    assert _ids(follow_up_scope("And sales?", [ACME, GLOBEX], [ACME, GLOBEX], _previous(["acme"], sides))) == [
        "acme",
        "globex",
    ]
    assert _ids(follow_up_scope("And sales?", [ACME, GLOBEX], [ACME, GLOBEX], _previous(["acme", "globex"]))) == [
        "acme",
        "globex",
    ]
