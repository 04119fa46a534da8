"""The cells a value is read from: the strongest evidence's pages first, then every table of the document(s).

A document's table cells, each page's cells (and whatever else a reader derives from one whole page, through
``kept_per_page``: the superlative reader's loose tables) and the document's cells read in its units are derived
from the loaded document alone, so each is kept in the document's memo (``DocumentIndex.memo``) and read again by
the next question about the document instead of being parsed again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from engine.contracts import Chunk, EvidenceItem, ParsedDocument
from engine.documents.layout import has_rows
from engine.reading.abbreviations import defined_abbreviations, with_long_names
from engine.reading.counts import counted_things, counts_asked
from engine.reading.document_units import in_fiscal_quarters, stated_units, with_document_scale
from engine.reading.periods import fiscal_year_end_month
from engine.reading.sentence_values import cells_in, counted_words
from engine.reading.table_values import Cell, table_cells
from engine.retrieval.index import DocumentIndex, DocumentMemo, warm_on_load
from engine.run.evidence import RunState

T = TypeVar("T")

MAX_VALUE_PAGES = 4
"""Pages per document read whole for a value: those of the strongest evidence, best first."""


def document_cells(state: RunState, doc_id: str) -> dict[int, list[Cell]]:
    """Every table cell of a document by page (stated numbers in prose are read from retrieved pages
    only): a value the retrieval missed is still read from its statement. Read once per loaded document."""
    index = state.layer1_index_of(doc_id)
    if index is None:
        return {}
    return index.memo.get("table_cells", lambda: _table_cells_by_page(index.doc, index.memo))


def _table_cells_by_page(doc: ParsedDocument, memo: DocumentMemo) -> dict[int, list[Cell]]:
    by_page: dict[int, list[Chunk]] = {}
    for chunk in doc.chunks:  # in the document's order, as ``DocumentIndex.chunks_on_pages`` gives them
        by_page.setdefault(chunk.page, []).append(chunk)
    short = _abbreviations(doc, memo)
    cells: dict[int, list[Cell]] = {}
    for page in range(1, doc.total_pages + 1):
        chunks = by_page.get(page, [])
        if any(has_rows(c.text) for c in chunks):  # a page with table rows, read whole (captions name columns)
            cells[page] = with_long_names(table_cells([_item(c, doc.file_name) for c in chunks]), short)
    return cells


def _abbreviations(doc: ParsedDocument, memo: DocumentMemo) -> dict[str, str]:
    """The short forms the document defines ("Quahog Ferries North (QFN)"), read once per document."""
    return memo.get("abbreviations", lambda: defined_abbreviations(c.text for c in doc.chunks if "(" in c.text))


def value_cells(state: RunState, doc_id: str | None) -> list[Cell]:
    """The cells of the strongest evidence's pages first, then every other table cell of the document(s)
    in page order: the matcher weighs earlier pages more, so retrieval still leads. Rows read in the scale
    and currency most of the document's rows (all of these cells) state, and in its fiscal quarters."""
    pages = value_pages(state, doc_id)
    near = [cell for items in pages for cell in _page_cells(state, items)]
    seen = {(p[0].doc_id, p[0].page) for p in pages if p}
    rest: list[tuple[str, int]] = []
    for index in state.indexes:
        if doc_id is not None and index.doc.doc_id != doc_id:
            continue
        rest += [(index.doc.doc_id, p) for p in sorted(document_cells(state, index.doc.doc_id)) if (index.doc.doc_id, p) not in seen]  # fmt: skip
    stated = stated_units(near + [cell for doc, page in rest for cell in document_cells(state, doc)[page]])
    ends = {i.doc.doc_id: _fiscal_end(i) for i in state.indexes}
    out = in_fiscal_quarters(with_document_scale(near, stated), ends)
    for doc, page in rest:
        out += _in_units(state, doc, (stated[0].get(doc, ""), stated[1].get(doc, ""), ends.get(doc)))[page]
    return out


def _page_cells(state: RunState, items: list[EvidenceItem]) -> list[Cell]:
    """``cells_in`` of one page's chunks (its tables and stated numbers), kept per page of the document."""
    index = state.layer1_index_of(items[0].doc_id) if items else None
    if index is None:
        return cells_in([items])
    return kept_per_page(
        index, items, "page_values", lambda: with_long_names(cells_in([items]), _abbreviations(index.doc, index.memo))
    )


def kept_per_page(index: DocumentIndex, page: list[EvidenceItem], name: str, read: Callable[[], T]) -> T:
    """``read()`` of one whole page's chunks (as :func:`whole_pages` gives them), made once per page of the
    document and kept in its memo under ``name``: what is read from a page's own text is the same for every
    question. The value is shared: its reader must not change it."""
    kept: dict[int, T] = index.memo.get(name, dict)
    found = kept.get(page[0].page)
    if found is None:
        found = kept[page[0].page] = read()
    return found


def _in_units(state: RunState, doc_id: str, units: Units) -> dict[int, list[Cell]]:
    """A document's table cells by page read in ``units`` (scale, currency, fiscal year's last month): kept
    per units, which stay the same from one question about the document to the next."""
    index = state.layer1_index_of(doc_id)
    if index is None:
        return {}
    return _kept_in_units(index.memo, doc_id, document_cells(state, doc_id), units)


Units = tuple[str, str, int | None]


def _kept_in_units(
    memo: DocumentMemo, doc_id: str, cells: dict[int, list[Cell]], units: Units
) -> dict[int, list[Cell]]:
    kept: dict[Units, dict[int, list[Cell]]] = memo.get("cells_in_units", dict)
    found = kept.get(units)
    if found is None:
        scale, currency, end = units
        stated = ({doc_id: scale} if scale else {}, {doc_id: currency} if currency else {})
        found = kept[units] = {
            page: in_fiscal_quarters(with_document_scale(page_cells, stated), {doc_id: end})
            for page, page_cells in cells.items()
        }
    return found


@warm_on_load
def _warm_units(doc: ParsedDocument, memo: DocumentMemo) -> None:
    """A question about a document read moments ago may ask for a value: the document's table cells are read,
    in the units its tables state and its fiscal calendar, while the question waits for the keyword index
    (what a value question reads them in: its own pages' rows are the document's rows, so they state the
    same units; other units are read when asked)."""
    cells = memo.get("table_cells", lambda: _table_cells_by_page(doc, memo))
    end = memo.get("fiscal_year_end", lambda: _fiscal_year_end(doc))
    scales, currencies = stated_units([cell for page in cells.values() for cell in page])
    _kept_in_units(memo, doc.doc_id, cells, (scales.get(doc.doc_id, ""), currencies.get(doc.doc_id, ""), end))


def _fiscal_end(index: DocumentIndex) -> int | None:
    """The month the document's fiscal year ends in (read once per document)."""
    return index.memo.get("fiscal_year_end", lambda: _fiscal_year_end(index.doc))


def _fiscal_year_end(doc: ParsedDocument) -> int | None:
    return fiscal_year_end_month(" ".join(c.text for c in doc.chunks))


def value_pages(state: RunState, doc_id: str | None) -> list[list[EvidenceItem]]:
    """The chunks of the pages holding the strongest evidence (of one document), page by page."""
    targeted = [state.ledger[cid] for cid in state.value_chunks if cid in state.ledger]
    ordered = [*targeted, *sorted(state.ledger.values(), key=lambda e: -e.fused)]
    pages: dict[tuple[str, int], None] = {}
    for entry in ordered:
        chunk = entry.hit.chunk
        if doc_id is None or chunk.doc_id == doc_id:
            pages.setdefault((chunk.doc_id, chunk.page), None)
    limit = MAX_VALUE_PAGES + (4 if state.value_chunks else 0)  # the value searches' pages too
    read = list(pages)[: limit * (1 if doc_id else max(1, len(state.indexes)))]
    read += [p for p in _counting_pages(state, [e.hit.chunk for e in ordered], doc_id) if p not in read]
    return whole_pages(state, read)


def whole_pages(state: RunState, pages: list[tuple[str, int]]) -> list[list[EvidenceItem]]:
    """The chunks of each (document, page), page by page (a page of a document not loaded is left out)."""
    names = state.file_names()
    out: list[list[EvidenceItem]] = []
    for doc, page in pages:
        index = state.layer1_index_of(doc)
        if index is not None:
            out.append([_item(c, names.get(doc, doc)) for c in index.chunks_on_pages([page])])
    return out


MAX_COUNTING_PAGES = 2


def _counting_pages(state: RunState, chunks: list[Chunk], doc_id: str | None) -> list[tuple[str, int]]:
    """For "how many <things>": the pages of retrieved chunks that state a number of those things, whatever their
    rank. A count sits in one sentence of prose ("we had 83,700 employees"), which ranks below the statements'
    tables whose headers share the question's date, and is read only from the pages read whole."""
    counted = counted_things(state.parsed.original_question)
    if not counted:
        return []
    found: dict[tuple[str, int], None] = {}
    for chunk in chunks:
        if (doc_id is None or chunk.doc_id == doc_id) and any(
            counts_asked(words, chunk.text, counted) for words in counted_words(chunk.text)
        ):
            found.setdefault((chunk.doc_id, chunk.page), None)
    return list(found)[:MAX_COUNTING_PAGES]


def _item(chunk: Chunk, file_name: str) -> EvidenceItem:
    return EvidenceItem(
        chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, file_name=file_name, page=chunk.page, text=chunk.text,
        section_path=chunk.section_path, kind=chunk.kind, bold_terms=chunk.bold_terms,
    )  # fmt: skip
