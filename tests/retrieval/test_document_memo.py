"""Derived data of a loaded document is computed once, shared by its views, and goes with the document."""

from __future__ import annotations

import threading

from engine.config import EngineConfig, LibraryConfig
from engine.library.local import Library
from engine.retrieval.index import DocumentMemo
from tests.reliability import pdfs


def test_a_value_is_made_once_even_under_concurrent_askers():
    memo = DocumentMemo()
    made: list[int] = []
    barrier = threading.Barrier(4)

    def ask() -> None:
        barrier.wait()
        memo.get("cells", lambda: made.append(1) or len(made))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made == [1]
    assert memo.get("cells", lambda: 99) == 1
    assert memo.get("calendar", lambda: 12) == 12, "each key is its own value"


def test_views_of_a_loaded_document_share_its_memo_and_a_reparse_does_not(tmp_path):
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path)))
    library = Library(config)
    entry = library.ingest(pdfs.text_pdf(["Revenue grew to 12 million in 2023."]), "notes.pdf")
    first = library.load(entry.doc_id)
    other = first.with_config(config.retrieval.model_copy(update={"top_k": 3}), first.retrieval_cache)
    assert other.memo is first.memo
    assert library.load(entry.doc_id).memo is first.memo, "the loaded document keeps its memo"
    assert first.with_document(first.doc).memo is not first.memo, "replaced chunks derive their own data"


def test_deleting_a_document_drops_its_derived_data(tmp_path):
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path)))
    library = Library(config)
    data = pdfs.text_pdf(["Revenue grew to 12 million in 2023."])
    entry = library.ingest(data, "notes.pdf")
    memo = library.load(entry.doc_id).memo
    memo.get("cells", lambda: "kept")
    library.delete(entry.doc_id)
    entry = library.ingest(data, "notes.pdf")
    assert library.load(entry.doc_id).memo is not memo
