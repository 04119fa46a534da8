"""Tests of engine.library.local (the on-disk document library)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import engine.library.local as library_module
from engine.contracts import LibraryEntry
from engine.documents.parsed_codec import decode, encode
from engine.errors import DocumentNotFoundError, NotAPdfError, NoTextLayerError
from engine.library.local import Library, sanitize_file_name
from engine.retrieval.dense import LsaRetriever
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex
from tests import pdfs


@pytest.fixture
def library(config) -> Library:
    return Library(config)


def _stored(entry: LibraryEntry) -> LibraryEntry:
    """The entry without its build state (which changes as background indexes finish)."""
    return entry.model_copy(update={"building": ()})


def _entry_dirs(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if not p.name.startswith("."))


def test_ingest_writes_the_layout(library, library_dir):
    data = pdfs.pdf_with_outline()
    events: list[tuple[float, str]] = []
    entry = library.ingest(data, "report.pdf", progress=lambda f, m: events.append((f, m)))
    assert isinstance(entry, LibraryEntry) and entry.file_name == "report.pdf"
    assert entry.size_bytes == len(data) and entry.total_pages == 4 and entry.profile.has_usable_toc
    folder = library_dir / entry.doc_id
    assert (folder / "original.pdf").read_bytes() == data
    assert decode((folder / "parsed.json").read_bytes()).total_pages == 4
    assert LibraryEntry.model_validate_json((folder / "manifest.json").read_text()) == _stored(entry)
    assert entry.building == ("keyword index", "dense index")
    library.wait_for_background()
    assert (folder / "index" / "loupe-index.json").is_file() and (folder / "dense.npz").is_file()
    assert library.get(entry.doc_id).building == ()
    assert not list(library_dir.glob(".staging-*"))
    fractions = [f for f, _ in events]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions) and len(events) >= 4


def test_same_bytes_twice_is_one_entry(library, library_dir):
    data = pdfs.pdf_with_outline()
    first = library.ingest(data, "a.pdf")
    second = library.ingest(data, "b.pdf")
    assert _stored(second) == _stored(first)
    assert second.file_name == "a.pdf"
    assert _entry_dirs(library_dir) == [first.doc_id]
    assert [e.doc_id for e in library.entries()] == [first.doc_id]


def test_entries_newest_first_and_get_by_prefix(library):
    a = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    b = library.ingest(pdfs.pdf_listing(), "b.pdf")
    assert [e.doc_id for e in library.entries()] == [b.doc_id, a.doc_id]
    assert _stored(library.get(a.doc_id[:10])) == _stored(a)
    assert _stored(library.get(b.doc_id.upper())) == _stored(b)
    with pytest.raises(DocumentNotFoundError, match="no document"):
        library.get("0" * 64 if not a.doc_id.startswith("0") else "f" * 64)
    with pytest.raises(DocumentNotFoundError, match="not a document id"):
        library.get("../etc/passwd")
    common = ""
    for x, y in zip(a.doc_id, b.doc_id, strict=True):
        if x != y:
            break
        common += x
    if common:
        with pytest.raises(DocumentNotFoundError, match="matches 2 documents"):
            library.get(common)


def test_empty_prefix_is_ambiguous_not_everything(library):
    library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    with pytest.raises(DocumentNotFoundError):
        library.get("")


def test_parsed_pdf_bytes_and_load(library):
    data = pdfs.pdf_with_outline()
    entry = library.ingest(data, "a.pdf")
    assert library.pdf_bytes(entry.doc_id) == data
    doc = library.parsed(entry.doc_id)
    assert doc.doc_id == entry.doc_id and doc.toc_source == "outline"
    index = library.load(entry.doc_id)
    assert isinstance(index, DocumentIndex) and index.doc == doc and index.profile == entry.profile
    hits = index.search("dropout", retriever="keyword")
    assert hits.hits and "dropout" in hits.hits[0].chunk.text.lower()
    assert library.load(entry.doc_id[:12]) is index, "loaded once per process"
    assert Library(library.config).load(entry.doc_id) is index, "shared by Library instances"


def test_load_does_not_reparse_when_cached(library, monkeypatch):
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.load(entry.doc_id)
    monkeypatch.setattr(library_module, "read_pdf", lambda *a, **k: pytest.fail("re-parsed"))
    monkeypatch.setattr(library_module, "decode", lambda *a, **k: pytest.fail("re-read"))
    library.load(entry.doc_id)
    library.parsed(entry.doc_id)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("report.pdf", "report.pdf"), ("../../etc/passwd", "passwd"), ("C:\\Users\\x\\My file.pdf", "My file.pdf"),
     ("a\x00b\nc.pdf", "abc.pdf"), ("..", "document.pdf"), ("", "document.pdf"), ("x" * 300, "x" * 200)],
)  # fmt: skip
def test_sanitize_file_name(name, expected):
    assert sanitize_file_name(name) == expected


def test_hostile_file_name_is_display_only(library, library_dir):
    entry = library.ingest(pdfs.pdf_with_outline(), "../../evil\x07.pdf")
    assert entry.file_name == "evil.pdf"
    assert _entry_dirs(library_dir) == [entry.doc_id]
    assert not (library_dir.parent / "evil.pdf").exists()


@pytest.mark.parametrize(("data", "error"), [(pdfs.not_a_pdf(), NotAPdfError), (pdfs.pdf_scanned(), NoTextLayerError)])
def test_failed_ingest_leaves_library_unchanged(library, library_dir, data, error):
    before = sorted(p.name for p in library_dir.iterdir())
    with pytest.raises(error):
        library.ingest(data, "bad.pdf")
    assert sorted(p.name for p in library_dir.iterdir()) == before
    assert library.entries() == []


def test_crash_while_saving_is_atomic(library, library_dir, monkeypatch):
    data = pdfs.pdf_with_outline()

    def boom(*args, **kwargs):
        raise RuntimeError("simulated crash while saving")

    monkeypatch.setattr(library_module.LibraryEntry, "model_dump_json", boom)
    with pytest.raises(RuntimeError, match="simulated crash"):
        library.ingest(data, "a.pdf")
    assert library.entries() == [] and _entry_dirs(library_dir) == []
    assert not list(library_dir.glob(".staging-*"))
    monkeypatch.undo()
    entry = library.ingest(data, "a.pdf")
    assert [e.doc_id for e in library.entries()] == [entry.doc_id]


def test_failed_background_index_build_leaves_an_entry_that_loads(library, library_dir, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("simulated crash while indexing")

    monkeypatch.setattr(KeywordIndex, "write", boom)
    monkeypatch.setattr(LsaRetriever, "build", boom)
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    monkeypatch.undo()
    folder = library_dir / entry.doc_id
    assert not (folder / "index").exists() and not (folder / "dense.npz").exists()
    assert not list(folder.glob(".index-*")), "a failed build leaves no half-written index"
    assert library.get(entry.doc_id).building == ("keyword index", "dense index")
    index = library.load(entry.doc_id)
    assert index.search("dropout", retriever="keyword").hits and index.dense.search("dropout training", 3).hits
    assert library.get(entry.doc_id).building == ()


def test_entry_without_manifest_is_ignored_then_cleaned(library, library_dir):
    data = pdfs.pdf_with_outline()
    entry = library.ingest(data, "a.pdf")
    library.delete(entry.doc_id)
    half = library_dir / entry.doc_id
    half.mkdir()
    (half / "original.pdf").write_bytes(b"partial")
    assert library.entries() == []
    with pytest.raises(DocumentNotFoundError):
        library.get(entry.doc_id)
    again = library.ingest(data, "a.pdf")
    assert (half / "manifest.json").exists() and (half / "original.pdf").read_bytes() == data
    settled = {"building": ()}  # the indexes build in the background: which are still building is a race
    assert library.get(entry.doc_id).model_copy(update=settled) == again.model_copy(update=settled)


def test_delete_removes_entry_and_cache(library, library_dir):
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    first = library.load(entry.doc_id)
    library.delete(entry.doc_id)
    assert library.entries() == [] and _entry_dirs(library_dir) == []
    assert not list(library_dir.glob(".staging-*"))
    with pytest.raises(DocumentNotFoundError):
        library.load(entry.doc_id)
    with pytest.raises(DocumentNotFoundError):
        library.delete(entry.doc_id)
    library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    assert library.load(entry.doc_id) is not first


def test_concurrent_ingest_of_same_bytes(library, library_dir):
    data = pdfs.pdf_with_outline()
    results: list[LibraryEntry] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def work() -> None:
        try:
            barrier.wait()
            results.append(Library(library.config).ingest(data, "same.pdf"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    assert len(results) == 4 and len({r.model_dump_json(exclude={"building"}) for r in results}) == 1
    assert _entry_dirs(library_dir) == [results[0].doc_id]
    assert library.wait_for_background(60)  # a build still running holds its dense index hand-off
    assert not list(library_dir.glob(".staging-*"))


def test_corrupt_index_is_rebuilt(library, library_dir, caplog):
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    index_dir = library_dir / entry.doc_id / "index"
    for path in index_dir.iterdir():
        path.write_bytes(b"garbage")
    index = library.load(entry.doc_id)
    assert index.search("dropout", retriever="keyword").hits
    assert any("rebuilding the keyword index" in r.message for r in caplog.records)


def test_missing_index_is_rebuilt(library, library_dir):
    import shutil

    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    shutil.rmtree(library_dir / entry.doc_id / "index")
    assert library.load(entry.doc_id).search("training", retriever="keyword").hits


def test_corrupt_parsed_json_is_rebuilt(library, library_dir, caplog):
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    parsed = library_dir / entry.doc_id / "parsed.json"
    original = parsed.read_bytes()
    parsed.write_text("{not json")
    doc = library.parsed(entry.doc_id)
    assert doc == decode(original)
    assert parsed.read_bytes() == original
    assert any("re-parsing" in r.message for r in caplog.records)


def test_ingest_path(library, tmp_path):
    path = tmp_path / "on-disk.pdf"
    path.write_bytes(pdfs.pdf_listing())
    assert library.ingest_path(path).file_name == "on-disk.pdf"
    with pytest.raises(DocumentNotFoundError, match="no file"):
        library.ingest_path(tmp_path / "missing.pdf")


def test_default_root_follows_env(library_dir):
    assert Library().root == library_dir


def test_transformer_paper_ingest(library, shared_dir):
    entry = library.ingest_path(shared_dir / "corpus/papers/attention_is_all_you_need.pdf")
    assert entry.total_pages == 15 and entry.profile.toc_entries == 22
    index = library.load(entry.doc_id)
    top = index.search("residual dropout regularization", retriever="keyword", k=5)
    assert 8 in {h.chunk.page for h in top.hits}


def test_an_entry_parsed_by_an_older_parser_is_reparsed_on_load(tmp_path):

    from engine.config import EngineConfig, LibraryConfig
    from engine.documents.parsing import PARSER_VERSION
    from engine.library.local import Library
    from tests import pdfs as test_pdfs

    library = Library(EngineConfig(library=LibraryConfig(path=str(tmp_path / "lib"))))
    entry = library.ingest(test_pdfs.pdf_with_outline(), "outline.pdf")
    parsed = tmp_path / "lib" / entry.doc_id / "parsed.json"
    library.wait_for_background()
    old = decode(parsed.read_bytes())
    # what an older parser may have produced
    parsed.write_bytes(encode(old.model_copy(update={"parser_version": PARSER_VERSION - 1, "chunks": old.chunks[:1]})))
    fresh = Library(EngineConfig(library=LibraryConfig(path=str(tmp_path / "lib"))))
    doc = fresh.parsed(entry.doc_id)
    assert doc.parser_version == PARSER_VERSION and len(doc.chunks) > 1
    assert decode(parsed.read_bytes()).parser_version == PARSER_VERSION
    assert fresh.load(entry.doc_id).search("introduction", "keyword", k=2).hits


def test_presets_share_one_loaded_document(library):
    from engine.config import PRESETS

    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    views = []
    for name in ("balanced", "fast", "thorough"):
        config = PRESETS[name].model_copy(update={"library": library.config.library})
        views.append(Library(config).load(entry.doc_id))
    assert len({id(v) for v in views}) == 3, "each preset gets its own view (its own sizes)"
    assert len({id(v.keyword) for v in views}) == 1 and len({id(v.dense_slot) for v in views}) == 1
    assert len({id(v.doc) for v in views}) == 1


def test_the_document_cache_is_bounded(library_dir):
    from engine.config import EngineConfig, LibraryConfig
    from engine.library.loaded import DOCUMENTS, cache_key

    small = Library(EngineConfig(library=LibraryConfig(path=str(library_dir), cache_documents=2)))
    ids = [small.ingest(data, f"{n}.pdf").doc_id for n, data in enumerate(
        [pdfs.pdf_with_outline(), pdfs.pdf_listing(), pdfs.pdf_with_table()]
    )]  # fmt: skip
    first = small.load(ids[0])
    small.load(ids[1])
    small.load(ids[2])
    assert DOCUMENTS.get(cache_key(small.root, ids[0], small.config)) is None, "the least recently used stays"
    assert DOCUMENTS.get(cache_key(small.root, ids[2], small.config)) is not None
    assert first.search("dropout", retriever="keyword").hits, "an evicted view still in use keeps working"
    assert small.load(ids[0]) is not first


def test_a_saved_dense_index_is_loaded_not_rebuilt(library, library_dir, monkeypatch):
    from engine.library.loaded import DOCUMENTS

    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    assert (library_dir / entry.doc_id / "dense.npz").is_file()
    DOCUMENTS.drop(entry.doc_id)  # as a new process would start
    monkeypatch.setattr(LsaRetriever, "build", lambda *a, **k: pytest.fail("the LSA was rebuilt"))
    assert library.load(entry.doc_id).dense.search("dropout training", 3).hits


def test_an_entry_in_the_older_layout_is_reparsed_and_reindexed(library, library_dir, caplog):
    from engine.library.loaded import DOCUMENTS
    from engine.retrieval.keyword import META_NAME

    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    folder = library_dir / entry.doc_id
    old = decode((folder / "parsed.json").read_bytes())
    (folder / "parsed.json").write_text(old.model_dump_json())  # the pydantic dump older versions wrote
    (folder / "index" / META_NAME).unlink()  # an index of the older schema has no metadata file
    DOCUMENTS.drop(entry.doc_id)
    index = library.load(entry.doc_id)
    assert index.search("dropout", retriever="keyword").hits
    assert decode((folder / "parsed.json").read_bytes()).total_pages == 4
    assert (folder / "index" / META_NAME).is_file()
    assert any("re-parsing" in r.message for r in caplog.records)


def test_a_cli_ingest_leaves_its_indexes_built(library_dir, tmp_path):
    import os
    import subprocess
    import sys

    from engine.config import REPO_ROOT

    path = tmp_path / "outline.pdf"
    path.write_bytes(pdfs.pdf_with_outline())
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "ingest", str(path), "--json"], cwd=REPO_ROOT, capture_output=True,
        text=True, timeout=300, env={**os.environ, "LOUPE_LIBRARY": str(library_dir)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (entry,) = Library().entries()
    assert entry.building == (), "the process exited before its background index builds were done"


def test_the_pdf_worker_builds_the_dense_index(library, library_dir, monkeypatch):
    """The LSA comes from the worker process (the parent only moves the file into the entry)."""
    from engine.library import entry_indexes

    class NoBuildHere(LsaRetriever):
        @classmethod
        def build(cls, *args, **kwargs):
            raise AssertionError("the LSA was built in the parent process")

    monkeypatch.setattr(entry_indexes, "LsaRetriever", NoBuildHere)
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    assert (library_dir / entry.doc_id / "dense.npz").is_file()
    assert not list(library_dir.glob(".staging-*")), "the worker's file was left in staging"
    assert library.load(entry.doc_id).dense.search("dropout training", 3).hits


def _run_script(tmp_path, ingest_line: str, after: str = "") -> str:
    """The first stdout line of a fresh interpreter that ingests a 4-page PDF with ``ingest_line``, then prints
    the pages and the loaded modules of the API's answering side and the run (after running ``after``)."""
    import subprocess
    import sys

    pdf = tmp_path / "notes.pdf"
    pdf.write_bytes(pdfs.pdf_with_outline())
    script = (
        "import sys, threading, engine\n"
        "from engine.config import EngineConfig, LibraryConfig\n"
        f"config = EngineConfig(library=LibraryConfig(path={str(tmp_path / 'lib')!r}))\n"
        f"entry = {ingest_line}(open({str(pdf)!r}, 'rb').read(), 'notes.pdf', config=config)\n"
        f"{after}\n"
        "print(entry.total_pages, sorted(m for m in sys.modules if m.startswith(('engine.api', 'engine.run')))[:2])\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split("\n")[0]


def test_a_script_that_only_ingests_loads_no_question_machinery(tmp_path):
    """The library's ``ingest`` lives with the library: a fresh interpreter that ingests with it imports neither
    the API's answering side nor the run (their imports would be paid before the ingest returns)."""
    assert _run_script(tmp_path, "__import__('engine.library').library.ingest") == "4 []"


def test_engine_ingest_imports_the_answering_side_while_the_worker_finishes(tmp_path):
    """``engine.ingest`` in a script has the answering side imported by a thread started once the worker's pages
    are read (the worker then finishes the parse alone, a core idle), so ``answer`` finds it loaded."""
    wait = "[t.join() for t in threading.enumerate() if t.name == 'loupe-while-finishing']"
    assert _run_script(tmp_path, "engine.ingest", wait) == "4 ['engine.api', 'engine.run']"
