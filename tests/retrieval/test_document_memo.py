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


def test_a_value_being_made_does_not_hold_up_another_key():
    memo = DocumentMemo()
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(10)
        return "cells"

    maker = threading.Thread(target=memo.get, args=("cells", slow))
    maker.start()
    assert started.wait(10)
    assert memo.get("calendar", lambda: 12) == 12, "another key is made while the first one is"
    release.set()
    maker.join(10)
    assert memo.get("cells", lambda: "again") == "cells"


def test_loading_a_document_whose_index_is_being_built_warms_its_memo(tmp_path, monkeypatch):
    """A question loading a document read moments ago waits for its keyword index; the registered warmers
    fill the memo the loaded document keeps meanwhile."""
    import threading
    import time

    from engine.library import pdf_worker
    from engine.retrieval import index as index_module

    seen: list[tuple[str, DocumentMemo]] = []

    def warmer(doc, memo: DocumentMemo) -> None:
        seen.append((doc.doc_id, memo))
        memo.get("words", lambda: sum(len(c.text.split()) for c in doc.chunks))

    save_keyword = pdf_worker._save_keyword
    gate = tmp_path / "keyword-may-finish"

    def slow_keyword(*args, **kwargs):  # runs in the worker's forked builder: the question has to wait
        deadline = time.monotonic() + 30.0  # until the test has begun loading (a file: another process reads it)
        while not gate.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        return save_keyword(*args, **kwargs)

    monkeypatch.setattr(pdf_worker, "_save_keyword", slow_keyword)
    monkeypatch.setattr(index_module, "_WARMERS", [warmer])
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path)))
    library = Library(config)
    entry = library.ingest(pdfs.text_pdf(["Revenue grew to 12 million in 2023.", "Costs fell."]), "notes.pdf")
    threading.Timer(0.5, gate.touch).start()  # the index is finished only once the question waits for it
    index = library.load(entry.doc_id)
    assert seen == [(entry.doc_id, index.memo)]
    assert index.memo.get("words", lambda: -1) > 0
    library.wait_for_background()
    assert library.load(entry.doc_id).memo is index.memo, "the loaded document keeps the warmed memo"


def test_a_warmer_that_fails_leaves_the_value_to_be_made_when_asked(monkeypatch):
    from engine.retrieval import index as index_module
    from tests.retrieval.factories import paper

    def broken(doc, memo: DocumentMemo) -> None:
        memo.get("cells", lambda: 1 / 0)

    monkeypatch.setattr(index_module, "_WARMERS", [broken])
    memo = DocumentMemo()
    index_module.start_warming(paper(), memo)
    for thread in threading.enumerate():
        if thread.name == "loupe-memo-warm":
            thread.join(10)
    assert memo.get("cells", lambda: "made") == "made"
