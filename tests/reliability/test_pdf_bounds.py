"""Small hostile PDFs cannot take the process down: structural guards refuse the known bombs at once,
and every PDF is read in a worker process bounded in memory and in time per page (issue 14, item 4)."""

from __future__ import annotations

import os
import resource
import signal
from collections import Counter
from pathlib import Path

import pytest

from engine.config import EngineConfig, LibraryConfig
from engine.errors import DocumentError, DocumentTooLargeError
from engine.library import pdf_worker
from engine.library.local import Library
from tests.reliability import pdfs
from tests.reliability.conftest import snapshot
from tests.reliability.subproc import ingest_in_child


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("maker", "cue"),
    [
        (lambda: pdfs.nested_forms_pdf(depth=9, fan=10), "nested forms"),  # 10**9 text draws in ~3 KB
        (lambda: pdfs.form_flate_bomb_pdf(200), "MB of drawing instructions"),  # 200 MB inside a form
    ],
    ids=["nested-forms", "flate-bomb-in-form"],
)
def test_known_bombs_are_refused_in_seconds_with_a_clear_error(maker, cue: str, library_dir: Path) -> None:
    """Refused by a structural guard (the message names the bomb), not by a page's time or memory bound;
    how long the refusal takes is printed by bench/hostile_pdfs.py."""
    data = maker()
    outcome = ingest_in_child(data, "bomb.pdf", library_dir, memory_mb=1500, timeout=90)
    assert "crashed" not in outcome, outcome
    assert outcome["ok"] is False and outcome["error"] == "DocumentTooLargeError", outcome
    assert cue in outcome["message"] and "\n" not in outcome["message"]
    assert "took longer than" not in outcome["message"] and "needs more" not in outcome["message"]
    assert not [p for p in library_dir.iterdir() if not p.name.startswith(".")], "a refused PDF left an entry"


def _bounded(library_dir: Path, **limits: object) -> EngineConfig:
    return EngineConfig(library=LibraryConfig(path=str(library_dir), **limits))  # type: ignore[arg-type]


@pytest.mark.timeout(120)
def test_a_page_over_the_time_bound_is_stopped(library_dir: Path) -> None:
    """8 MB of text operators pass the guards but take MuPDF 5-15 s and ~500 MB: the worker is stopped."""
    data = pdfs.huge_content_stream_pdf(8)
    before_files, before_peak = snapshot(library_dir), _peak_mb()
    with pytest.raises(DocumentTooLargeError, match=r"reading page 1 took longer than 1 s") as info:
        Library(_bounded(library_dir, max_page_seconds=1.0)).ingest(data, "slow.pdf")
    assert "\n" not in str(info.value)
    assert snapshot(library_dir) == before_files
    assert _peak_mb() - before_peak < 150, "the page was read in this process, not in the worker"


@pytest.mark.timeout(180)
def test_a_page_over_the_memory_bound_fails_in_the_worker(library_dir: Path) -> None:
    data = pdfs.huge_content_stream_pdf(8)
    before_peak = _peak_mb()
    with pytest.raises(DocumentTooLargeError, match=r"page 1 needs more") as info:
        Library(_bounded(library_dir, max_parse_memory_mb=256, max_page_seconds=120)).ingest(data, "big.pdf")
    assert "memory" in str(info.value)
    assert _peak_mb() - before_peak < 150
    assert Library(_bounded(library_dir)).entries() == []


@pytest.mark.timeout(60)
def test_a_crashing_reader_is_a_clear_error_and_the_library_is_unchanged(
    library_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object, **kwargs: object) -> None:
        os.kill(os.getpid(), signal.SIGSEGV)  # what a MuPDF crash on a hostile page looks like

    monkeypatch.setattr(pdf_worker, "parse_pdf", crash)
    library = Library(_bounded(library_dir))
    with pytest.raises(DocumentError, match="crashed the reader") as info:
        library.ingest(pdfs.text_pdf(), "crash.pdf")
    assert "\n" not in str(info.value)
    assert library.entries() == [] and not list(library_dir.glob(".staging-*"))
    monkeypatch.undo()
    assert library.ingest(pdfs.text_pdf(), "fine.pdf").total_pages == 2


@pytest.mark.timeout(60)
def test_without_isolation_the_guards_still_refuse_the_bombs(library_dir: Path) -> None:
    library = Library(_bounded(library_dir, isolate_parsing=False))
    bombs = ((pdfs.nested_forms_pdf(depth=9, fan=10), "nested forms"), (pdfs.form_flate_bomb_pdf(200), "MB of drawing"))
    for data, cue in bombs:
        with pytest.raises(DocumentTooLargeError, match=cue):
            library.ingest(data, "bomb.pdf")


def _with_heavy_page(pages: int, heavy: int) -> bytes:
    """``pages`` pages of text with page ``heavy`` (1-based) replaced by 8 MB of text operators."""
    import pymupdf

    doc = pymupdf.open(stream=pdfs.distinct_pages_pdf(pages), filetype="pdf")
    bomb = pymupdf.open(stream=pdfs.huge_content_stream_pdf(8), filetype="pdf")
    doc.delete_page(heavy - 1)
    doc.insert_pdf(bomb, start_at=heavy - 1)
    return pdfs.save(doc, deflate=True)


@pytest.mark.timeout(180)
def test_a_slow_page_in_the_second_half_is_named(library_dir: Path) -> None:
    """Long documents are read by two processes: the helper's pages have the same per-page bound."""
    with pytest.raises(DocumentTooLargeError, match=r"reading page 55 took longer than 2 s"):
        Library(_bounded(library_dir, max_page_seconds=2.0)).ingest(_with_heavy_page(60, 55), "slow.pdf")
    assert Library(_bounded(library_dir)).entries() == []


@pytest.mark.timeout(180)
def test_two_readers_give_the_same_parse_as_one(library_dir: Path) -> None:
    data = pdfs.distinct_pages_pdf(90)
    split = Library(_bounded(library_dir)).ingest(data, "split.pdf")
    alone = Library(_bounded(library_dir / "alone", isolate_parsing=False)).ingest(data, "alone.pdf")
    assert split.total_pages == alone.total_pages == 90
    assert Library(_bounded(library_dir)).parsed(split.doc_id) == Library(
        _bounded(library_dir / "alone", isolate_parsing=False)
    ).parsed(alone.doc_id).model_copy(update={"file_name": "split.pdf"})


@pytest.mark.timeout(180)
@pytest.mark.parametrize("pages", [4, 60])  # one reader; the worker and its helper
def test_the_work_while_the_worker_finishes_starts_once_every_page_is_read(
    library_dir: Path, monkeypatch: pytest.MonkeyPatch, pages: int
) -> None:
    """``WHILE_FINISHING`` runs once per parse, in its own thread, once every reader has read its pages (each
    page was reported before), while the ingest is still waiting for the parse."""
    import threading

    from engine.library import isolation

    reported: list[int] = []
    seen: list[tuple[int, bool]] = []
    started = threading.Event()

    def note() -> None:
        seen.append((len(reported), threading.current_thread() is threading.main_thread()))
        started.set()

    monkeypatch.setattr(isolation, "WHILE_FINISHING", [note])
    result = isolation.read_pdf(
        pdfs.distinct_pages_pdf(pages), "a.pdf", _bounded(library_dir), lambda f, m: reported.append(1)
    )
    assert started.wait(10)
    assert seen == [(pages, False)]
    assert result.profile.total_pages == pages


@pytest.mark.timeout(180)
def test_the_reader_free_takes_the_next_pages_while_the_worker_probes(
    library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker probes the document once its helper reads, and the two take the pages block by block from one
    queue: the helper, reading while the (here slowed) probe runs, reads more than half (here all); each page is
    read once."""
    import time

    from engine.library import page_readers

    noted = tmp_path / "pages.txt"
    real_probe, real_read = pdf_worker.probe_pdf, page_readers.read_pages

    def slow_probe(*args: object, **kwargs: object) -> object:
        time.sleep(1.5)
        return real_probe(*args, **kwargs)  # type: ignore[arg-type]

    def noting_read(pdf: object, config: object, on_page: object, numbers: object = None) -> object:
        def noting(pages: object) -> object:
            for number in pages:  # type: ignore[attr-defined]
                with noted.open("a") as out:
                    out.write(f"{os.getpid()} {number}\n")
                yield number

        return real_read(pdf, config, on_page, noting(numbers))  # type: ignore[arg-type]

    monkeypatch.setattr(pdf_worker, "probe_pdf", slow_probe)
    monkeypatch.setattr(page_readers, "read_pages", noting_read)
    entry = Library(_bounded(library_dir)).ingest(pdfs.distinct_pages_pdf(60), "long.pdf")
    rows = [line.split() for line in noted.read_text().splitlines()]
    assert sorted(int(number) for _, number in rows) == list(range(60))
    by_reader = Counter(pid for pid, _ in rows)
    assert max(by_reader.values()) > 30  # the helper's (static halves gave each reader 30)
    assert entry.total_pages == entry.profile.total_pages == 60
