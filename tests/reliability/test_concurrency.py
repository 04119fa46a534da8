"""Concurrency and durability: one entry per document, no half-written entry, self-repairing index."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.errors import DocumentNotFoundError, LibraryCorruptError, LoupeError
from engine.library.local import Library
from tests.reliability import pdfs
from tests.reliability.conftest import entry_dirs, run_cli, snapshot
from tests.reliability.subproc import child_command, child_env, lingering

QUESTION = "What did the Heron survey measure?"


def _assert_one_good_entry(config: EngineConfig, doc_id: str) -> None:
    library = Library(config)
    assert [e.doc_id for e in library.entries()] == [doc_id]
    assert [p.name for p in entry_dirs(library.root)] == [doc_id]
    assert hashlib.sha256(library.pdf_bytes(doc_id)).hexdigest() == doc_id
    assert library.load(doc_id).search("turbidity", "keyword", k=3).hits


@pytest.mark.timeout(120)
def test_two_threads_ingesting_the_same_bytes_make_one_entry(config: EngineConfig) -> None:
    data = pdfs.text_pdf()
    barrier = threading.Barrier(2)

    def ingest(name: str):
        library = Library(config)
        barrier.wait()
        return library.ingest(data, name)

    with ThreadPoolExecutor(2) as pool:
        entries = list(pool.map(ingest, ["first.pdf", "second.pdf"]))
    assert entries[0].doc_id == entries[1].doc_id == hashlib.sha256(data).hexdigest()
    _assert_one_good_entry(config, entries[0].doc_id)


@pytest.mark.timeout(120)
def test_eight_threads_mixed_documents(config: EngineConfig) -> None:
    two = [pdfs.text_pdf((f"Report {i}. " + pdfs.BODY,)) for i in range(2)]
    datas = two * 4
    barrier = threading.Barrier(8)

    def ingest(data: bytes):
        barrier.wait()
        return Library(config).ingest(data, "same-name.pdf").doc_id

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(ingest, datas))
    assert len(set(ids)) == 2
    library = Library(config)
    assert sorted(e.doc_id for e in library.entries()) == sorted(set(ids))
    assert len(entry_dirs(library.root)) == 2


@pytest.mark.timeout(180)
def test_two_processes_ingesting_the_same_bytes_make_one_entry(
    tmp_path: Path, library_dir: Path, config: EngineConfig
) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(pdfs.many_pages_pdf(60))
    env = {**child_env(), "LOUPE_LIBRARY": str(library_dir)}
    procs = [
        subprocess.Popen([sys.executable, "-m", "engine", "ingest", str(path), "--json"], env=env, cwd=Path(__file__).parents[2],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]  # fmt: skip
    outputs = [p.communicate(timeout=150) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [o[1] for o in outputs]
    ids = {json.loads(out.strip().splitlines()[-1])["doc_id"] for out, _ in outputs}
    assert len(ids) == 1
    doc_id = ids.pop()
    library = Library(config)
    assert [e.doc_id for e in library.entries()] == [doc_id]
    assert [p.name for p in entry_dirs(library.root)] == [doc_id]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kill_at", [0.05, 0.5, 0.9])
def test_ingest_killed_midway_leaves_no_good_looking_entry(
    kill_at: float, tmp_path: Path, library_dir: Path, config: EngineConfig, two_thousand_pages: bytes
) -> None:
    path = tmp_path / "register.pdf"
    path.write_bytes(two_thousand_pages)
    proc = subprocess.Popen(
        child_command(path, "register.pdf", library_dir, max_pages=2500),
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    killed_at = None
    assert proc.stdout is not None
    for line in proc.stdout:
        fraction = json.loads(line).get("progress")
        if fraction is not None and fraction >= kill_at:
            os.kill(proc.pid, signal.SIGKILL)
            killed_at = fraction
            break
    proc.wait(timeout=60)
    assert killed_at is not None, "the child finished before it could be killed"
    assert lingering(str(library_dir)) == [], "the killed ingest's PDF worker outlived it"
    doc_id = hashlib.sha256(two_thousand_pages).hexdigest()
    library = Library(config)
    for entry in library.entries():  # an entry that survived must be whole
        assert entry.doc_id == doc_id and entry.total_pages == 2000
        assert library.parsed(doc_id).total_pages == 2000
    if not library.entries():
        with pytest.raises(DocumentNotFoundError):
            library.get(doc_id)
    big = config.model_copy(update={"library": LibraryConfig(path=str(library_dir), max_pages=2500)})
    entry = Library(big).ingest(two_thousand_pages, "register.pdf")
    assert entry.total_pages == 2000
    reloaded = Library(big)
    assert [e.doc_id for e in reloaded.entries()] == [doc_id]
    assert reloaded.load(doc_id).doc.total_pages == 2000


@pytest.mark.timeout(120)
@pytest.mark.parametrize("target", ["parsed", "rename"])
def test_failure_between_staging_steps_leaves_no_entry(
    target: str, config: EngineConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inject a failure while the parse is saved, or when the staged folder is moved into place."""
    data = pdfs.text_pdf()
    library = Library(config)
    if target == "parsed":
        real_write = Path.write_bytes

        def broken_write(self: Path, payload: bytes) -> int:
            if self.name == "parsed.json":
                raise OSError("disk full (injected)")
            return real_write(self, payload)

        monkeypatch.setattr(Path, "write_bytes", broken_write)
    else:

        def broken_move(*args: object, **kwargs: object) -> None:
            raise OSError("rename failed (injected)")

        for module, name in ((os, "replace"), (os, "rename")):
            monkeypatch.setattr(module, name, broken_move)
        monkeypatch.setattr(Path, "rename", broken_move)
        monkeypatch.setattr(Path, "replace", broken_move)
    with pytest.raises((OSError, LoupeError)):
        library.ingest(data, "report.pdf")
    monkeypatch.undo()
    assert Library(config).entries() == []
    assert entry_dirs(library.root) == []
    entry = Library(config).ingest(data, "report.pdf")
    _assert_one_good_entry(config, entry.doc_id)


@pytest.mark.timeout(120)
def test_failed_background_index_build_leaves_a_whole_entry(
    config: EngineConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The keyword index fails to build after ingest returned: the entry is whole, shows the index as
    still to build, holds no half-written index, and the next load builds it."""
    from engine.retrieval import keyword

    def broken_build(*args: object, **kwargs: object) -> None:
        raise OSError("disk full (injected)")

    monkeypatch.setattr(keyword.KeywordIndex, "write", staticmethod(lambda *a, **k: broken_build()))
    library = Library(config)
    entry = library.ingest(pdfs.text_pdf(), "report.pdf")
    library.wait_for_background()
    monkeypatch.undo()
    folder = library.root / entry.doc_id
    assert "keyword index" in Library(config).get(entry.doc_id).building
    assert not (folder / "index").exists() and not list(folder.glob(".index-*"))
    _assert_one_good_entry(config, entry.doc_id)
    assert "keyword index" not in Library(config).get(entry.doc_id).building


@pytest.mark.timeout(180)
def test_process_killed_while_indexing_leaves_an_entry_that_loads(tmp_path: Path, library_dir: Path) -> None:
    """SIGKILL right after ingest returned, while the background index build runs."""
    data = pdfs.distinct_pages_pdf(800)
    path = tmp_path / "register.pdf"
    path.write_bytes(data)
    proc = subprocess.Popen(
        child_command(path, "register.pdf", library_dir, max_pages=2500), env=child_env(), stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        if json.loads(line).get("ok"):
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert lingering(str(library_dir)) == [], "the killed process's PDF worker outlived it"
    doc_id = hashlib.sha256(data).hexdigest()
    config = EngineConfig(library=LibraryConfig(path=str(library_dir), max_pages=2500))
    library = Library(config)
    assert [e.doc_id for e in library.entries()] == [doc_id]
    assert library.get(doc_id).building, "the kill came after the background build (test needs a slower build)"
    assert library.load(doc_id).search("station 417 turbidity", "keyword", k=3).hits[0].chunk.page == 417
    assert library.load(doc_id).dense.search("turbidity survey", 3).hits
    assert Library(config).get(doc_id).building == ()


# ------------------------------------------------------------------------------------------------
# Corruption on disk
# ------------------------------------------------------------------------------------------------


def _garble(path: Path, how: str) -> None:
    if how == "truncate":
        path.write_bytes(b"")
    elif how == "garble":
        data = bytearray(path.read_bytes() or b"\0" * 64)
        for i in range(0, len(data), 7):
            data[i] ^= 0xA5
        path.write_bytes(bytes(data))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", ["truncate", "garble", "delete"])
def test_corrupted_index_is_rebuilt_from_the_stored_pdf(
    how: str, config: EngineConfig, tmp_path: Path, library_dir: Path
) -> None:
    data = pdfs.text_pdf()
    library = Library(config)
    doc_id = library.ingest(data, "heron.pdf").doc_id
    library.wait_for_background()
    index_dir = library_dir / doc_id / "index"
    files = [p for p in index_dir.rglob("*") if p.is_file()]
    assert files, "no index files were written"
    if how == "delete":
        for p in files:
            p.unlink()
    else:
        for p in files:
            _garble(p, how)
    damaged = snapshot(index_dir)
    hits = Library(config).load(doc_id).search("turbidity stations", "keyword", k=3).hits
    assert hits and hits[0].chunk.doc_id == doc_id
    assert snapshot(index_dir) != damaged, "the index on disk was not rebuilt"
    # a fresh process (no in-memory state) also finds it intact
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(data)
    proc = run_cli(["search", str(pdf), "turbidity", "--json", "--retriever", "keyword"], library_dir)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1])["hits"]
    _assert_one_good_entry(config, doc_id)


@pytest.mark.timeout(120)
def test_corrupted_parsed_json_is_rebuilt_from_the_stored_pdf(config: EngineConfig, library_dir: Path) -> None:
    doc_id = Library(config).ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    _garble(library_dir / doc_id / "parsed.json", "garble")
    library = Library(config)
    assert library.parsed(doc_id).total_pages == 2
    assert library.load(doc_id).search("turbidity", "keyword", k=3).hits


@pytest.mark.timeout(120)
def test_corrupted_manifest_does_not_break_the_library(config: EngineConfig, library_dir: Path) -> None:
    assert pdfs.text_pdf() == pdfs.text_pdf(), "generated PDFs must be deterministic for this test"
    good = Library(config).ingest(pdfs.text_pdf(("Second document about rainfall and rivers.",)), "b.pdf")
    bad = Library(config).ingest(pdfs.text_pdf(), "a.pdf")
    _garble(library_dir / bad.doc_id / "manifest.json", "garble")
    library = Library(config)
    listed = [e.doc_id for e in library.entries()]  # must not raise
    assert good.doc_id in listed
    assert bad.doc_id not in listed, "a garbled manifest was listed as a good entry"
    again = library.ingest(pdfs.text_pdf(), "a.pdf")  # re-ingest repairs it
    assert again.doc_id == bad.doc_id
    assert sorted(e.doc_id for e in Library(config).entries()) == sorted([good.doc_id, bad.doc_id])


@pytest.mark.timeout(120)
def test_damaged_parse_and_missing_pdf_is_one_clear_error(config: EngineConfig, library_dir: Path) -> None:
    """Nothing left to rebuild from: a LibraryCorruptError with one line, not a crash."""
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    library.wait_for_background()
    for p in (library_dir / doc_id / "index").rglob("*"):
        if p.is_file():
            _garble(p, "garble")
    _garble(library_dir / doc_id / "parsed.json", "garble")
    (library_dir / doc_id / "original.pdf").unlink()
    with pytest.raises(LibraryCorruptError) as info:
        Library(config).load(doc_id)
    assert str(info.value).strip() and "\n" not in str(info.value).strip()


# ------------------------------------------------------------------------------------------------
# Parallel questions
# ------------------------------------------------------------------------------------------------


@pytest.mark.timeout(180)
def test_parallel_answers_on_one_document_all_succeed(config: EngineConfig, library_dir: Path) -> None:
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    library.wait_for_background()
    before = snapshot(library_dir / doc_id)
    barrier = threading.Barrier(4)
    questions = [QUESTION, "How many stations saw turbidity fall?", QUESTION, "What does median smoothing remove?"]

    def ask(question: str):
        barrier.wait()
        return answer(question, [doc_id], config=config, library=Library(config))

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(ask, questions))
    assert all(r.answer.text.strip() for r in results)
    assert results[0].answer.text == results[2].answer.text
    assert results[0].evidence_pages == results[2].evidence_pages
    after = Library(config)
    assert [e.doc_id for e in after.entries()] == [doc_id]
    assert snapshot(library_dir / doc_id) == before, "asking questions changed the entry on disk"
    assert after.load(doc_id).search("turbidity", "keyword", k=3).hits


@pytest.mark.timeout(180)
def test_ingest_and_answer_at_the_same_time(config: EngineConfig) -> None:
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    others = [pdfs.text_pdf((f"Annex {i}: rainfall totals per basin.",)) for i in range(3)]
    with ThreadPoolExecutor(6) as pool:
        asks = [pool.submit(answer, QUESTION, [doc_id], config=config, library=library) for _ in range(3)]
        adds = [pool.submit(library.ingest, data, f"annex-{i}.pdf") for i, data in enumerate(others)]
        results = [f.result() for f in asks]
        added = [f.result() for f in adds]
    assert all(r.answer.text for r in results)
    assert len(Library(config).entries()) == 1 + len({a.doc_id for a in added})
