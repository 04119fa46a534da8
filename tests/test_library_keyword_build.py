"""A keyword index the library builds is searched as built (its in-memory copy), and the files it leaves
in the entry rank exactly like it when a later process opens them."""

from __future__ import annotations

import shutil
import time

import pytest

from engine.library import entry_indexes
from engine.library.local import Library
from engine.retrieval.keyword import KeywordIndex
from tests import pdfs


def test_the_built_index_and_its_files_rank_alike(config, library_dir):
    library = Library(config)
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    shutil.rmtree(library_dir / entry.doc_id / "index")  # load() rebuilds it
    index = library.load(entry.doc_id)
    assert index.keyword.memory_backed
    reopened = KeywordIndex.open(library_dir / entry.doc_id / "index", index.doc, config.retrieval)
    for query in ("training", "dropout attention", "results of the model"):
        got = [(h.chunk.chunk_id, h.score) for h in index.keyword.search(query, 10).hits]
        assert got and got == [(h.chunk.chunk_id, h.score) for h in reopened.search(query, 10).hits]


def test_the_worker_builds_the_keyword_index_the_library_opens(config, library_dir, monkeypatch):
    """The PDF worker's process builds the keyword index: the ingesting process only opens it, also when the
    first question loads the document at once (its build is next in line, so it is waited for, not raced),
    and it ranks exactly like an index built in this process from the same chunks."""
    built_here: list[str] = []
    real_build = KeywordIndex.build

    def counting_build(doc, directory, settings):
        built_here.append(str(directory))
        return real_build(doc, directory, settings)

    library = Library(config)
    monkeypatch.setattr(KeywordIndex, "build", staticmethod(counting_build))  # a forked process counts its own
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    index = library.load(entry.doc_id)
    library.wait_for_background()
    monkeypatch.undo()
    assert built_here == []
    assert (library_dir / entry.doc_id / "index" / "loupe-index.json").is_file()
    own = KeywordIndex.in_memory(index.doc, config.retrieval)
    for query in ("training", "dropout attention", "results of the model"):
        got = [(h.chunk.chunk_id, h.score) for h in index.keyword.search(query, 10).hits]
        assert got and got == [(h.chunk.chunk_id, h.score) for h in own.search(query, 10).hits]


def test_the_keyword_builder_starts_before_the_parse_is_encoded(config, library_dir, tmp_path, monkeypatch):
    """The worker forks the keyword index's builder as soon as the parse is read, so the index is built while
    the parse is encoded and sent; a builder done first waits to announce its index until the worker's parse
    message is sent (one pipe: that long message must not be cut by another), and the library opens it."""
    from engine.library import pdf_worker

    order = tmp_path / "order.txt"
    real_fork, real_encode = pdf_worker._fork_builder, pdf_worker.encode

    def noting_fork(*args, **kwargs):
        with order.open("a") as out:
            out.write("fork\n")
        return real_fork(*args, **kwargs)

    def slow_encode(doc):
        with order.open("a") as out:
            out.write("encode\n")
        time.sleep(1.0)  # the builder of this 4-page document is done long before
        return real_encode(doc)

    built_here: list[str] = []
    real_rebuild = entry_indexes._rebuild_keyword
    monkeypatch.setattr(pdf_worker, "_fork_builder", noting_fork)
    monkeypatch.setattr(pdf_worker, "encode", slow_encode)
    monkeypatch.setattr(entry_indexes, "_rebuild_keyword", lambda *a: built_here.append("parent") or real_rebuild(*a))
    config = config.model_copy(update={"library": config.library.model_copy(update={"max_parse_seconds": 30.0})})
    library = Library(config)
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    index = library.load(entry.doc_id)
    library.wait_for_background()
    assert order.read_text().split() == ["fork", "encode"]
    assert built_here == [], "the worker's keyword index was not announced, so the parent built its own"
    assert index.keyword.search("dropout attention", 5).hits


def test_the_background_build_places_the_workers_lsa_and_the_first_use_reads_it(config, library_dir, monkeypatch):
    """The background build only moves the worker's LSA into the entry (no read of it while the first question
    runs); the first question that ranks by meaning loads it, once."""
    from engine.retrieval.dense import LsaRetriever

    loads: list[str] = []
    real_load = LsaRetriever.load

    def counting_load(path, doc, dims):
        loads.append(str(path))
        return real_load(path, doc, dims)

    monkeypatch.setattr(entry_indexes.LsaRetriever, "load", staticmethod(counting_load))
    library = Library(config)
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    assert (library_dir / entry.doc_id / "dense.npz").is_file()
    assert loads == []
    index = library.load(entry.doc_id)
    assert index.dense.search("dropout training", 3).hits
    assert index.dense.search("attention heads", 3) is not None
    assert loads == [str(library_dir / entry.doc_id / "dense.npz")]


def _noting_builds(tmp_path, monkeypatch):
    """The keyword build made slow and both builds noting when they start and end (the worker's processes are
    forked: they note in a file)."""
    from engine.library import pdf_worker

    tmp_path.mkdir()
    order = tmp_path / "builds.txt"
    real_keyword, real_lsa = pdf_worker._save_keyword, pdf_worker._save_lsa

    def note(text):
        with order.open("a") as out:
            out.write(text + "\n")

    def slow_keyword(*args):
        note("keyword start")
        time.sleep(0.5)
        try:
            return real_keyword(*args)
        finally:
            note("keyword end")

    def noted_lsa(*args):
        note("lsa start")
        return real_lsa(*args)

    monkeypatch.setattr(pdf_worker, "_save_keyword", slow_keyword)
    monkeypatch.setattr(pdf_worker, "_save_lsa", noted_lsa)
    return order


def test_the_worker_builds_the_lsa_after_the_keyword_index(config, library_dir, tmp_path, monkeypatch):
    """By default the LSA waits for the keyword index (the first question waits for that index only, and the
    asking process needs the other core); ``dense_after_keyword`` off, both are built at once; either way the
    entry gets both indexes."""
    for after in (True, False):
        folder = library_dir / str(after)
        folder.mkdir()
        library_config = config.library.model_copy(update={"dense_after_keyword": after, "path": str(folder)})
        with monkeypatch.context() as patch:
            order = _noting_builds(tmp_path / str(after), patch)
            library = Library(config.model_copy(update={"library": library_config}))
            entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
            library.wait_for_background()
        noted = order.read_text().splitlines()
        assert sorted(noted) == ["keyword end", "keyword start", "lsa start"]
        assert (noted.index("lsa start") > noted.index("keyword end")) is after
        assert (folder / entry.doc_id / "dense.npz").is_file()
        assert (folder / entry.doc_id / "index" / "loupe-index.json").is_file()


def test_the_clis_ingest_forks_the_lsa_before_the_parse_is_encoded(config, library_dir, tmp_path, monkeypatch):
    """With ``dense_after_keyword`` off (the CLI's ingest) the LSA, the longer build, is the forked one: it starts
    as soon as the parse is read, not once the parse is encoded and sent; the keyword index is built beside it."""
    from engine.library import pdf_worker

    order = _noting_builds(tmp_path / "builds", monkeypatch)
    real_encode = pdf_worker.encode

    def slow_encode(doc):
        time.sleep(0.5)  # the forked LSA of this 4-page document starts long before
        with order.open("a") as out:
            out.write("encoded\n")
        return real_encode(doc)

    monkeypatch.setattr(pdf_worker, "encode", slow_encode)
    library_config = config.library.model_copy(update={"dense_after_keyword": False, "max_parse_seconds": 30.0})
    library = Library(config.model_copy(update={"library": library_config}))
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    noted = order.read_text().splitlines()
    assert noted.index("lsa start") < noted.index("encoded") < noted.index("keyword start")
    assert (library_dir / entry.doc_id / "dense.npz").is_file()
    assert (library_dir / entry.doc_id / "index" / "loupe-index.json").is_file()


def test_without_load_after_ingest_the_indexes_are_only_moved_into_the_entry(config, library_dir, monkeypatch):
    """The CLI's ingest asks nothing: its background build moves the worker's indexes into the entry without
    decoding the parse or opening the keyword index, and a later process opens them as usual."""
    from engine.library.isolation import ReadResult

    decoded: list[str] = []
    opened: list[str] = []
    real_document, real_open = ReadResult.document, KeywordIndex.open
    monkeypatch.setattr(ReadResult, "document", lambda self: decoded.append("doc") or real_document(self))
    monkeypatch.setattr(KeywordIndex, "open", classmethod(lambda cls, *a: opened.append("ix") or real_open(*a)))
    library_config = config.library.model_copy(update={"dense_after_keyword": False, "load_after_ingest": False})
    library = Library(config.model_copy(update={"library": library_config}))
    entry = library.ingest(pdfs.pdf_with_outline(), "a.pdf")
    library.wait_for_background()
    monkeypatch.undo()
    assert decoded == [] and opened == []
    assert Library(config).get(entry.doc_id).building == ()
    index = Library(config).load(entry.doc_id)
    assert index.keyword.search("dropout attention", 5).hits and index.dense.search("dropout training", 3).hits


def test_the_pdf_worker_reads_without_the_cyclic_collector(config, library_dir, tmp_path, monkeypatch):
    """The worker, its reading helper and its builders run with the cyclic garbage collector off (it found
    nothing to free in a parse, yet its passes over the thousands of new objects of each page took a tenth of
    the parse); the ingesting process keeps its collector."""
    import gc

    from engine.library import page_readers, pdf_worker
    from tests.reliability import pdfs as long_pdfs

    seen = tmp_path / "gc.txt"
    real_read, real_save = page_readers.read_pages, pdf_worker._save_keyword

    def noting_read(*args, **kwargs):
        with seen.open("a") as out:
            out.write(f"read {gc.isenabled()}\n")
        return real_read(*args, **kwargs)

    def noting_save(*args):
        with seen.open("a") as out:
            out.write(f"keyword {gc.isenabled()}\n")
        return real_save(*args)

    monkeypatch.setattr(page_readers, "read_pages", noting_read)
    monkeypatch.setattr(pdf_worker, "_save_keyword", noting_save)
    library = Library(config)
    library.ingest(long_pdfs.distinct_pages_pdf(page_readers.SPLIT_MIN_PAGES), "long.pdf")
    library.wait_for_background()
    assert sorted(seen.read_text().splitlines()) == ["keyword False", "read False", "read False"]
    assert gc.isenabled()


def test_whoosh_and_numpy_are_loaded_by_the_worker_not_by_the_process_that_ingests(tmp_path):
    """Before the worker starts, the ingesting process imports neither whoosh nor numpy (the worker imports them
    while its helper reads); the CLI's ingest, which only moves the indexes into the entry, never loads them."""
    import subprocess
    import sys
    from pathlib import Path

    pdf = tmp_path / "notes.pdf"
    pdf.write_bytes(pdfs.pdf_with_outline())
    script = (
        "import sys\n"
        "heavy = lambda: sorted({m.split('.')[0] for m in sys.modules} & {'whoosh', 'numpy'})\n"
        "from engine.config import EngineConfig, LibraryConfig\n"
        "from engine.library import open_library\n"
        f"settings = LibraryConfig(path={str(tmp_path / 'lib')!r}, dense_after_keyword=False, load_after_ingest=False)\n"
        "library = open_library(EngineConfig(library=settings))\n"
        "before = heavy()\n"
        f"entry = library.ingest(open({str(pdf)!r}, 'rb').read(), 'notes.pdf')\n"
        "library.wait_for_background()\n"
        "print(before, heavy(), library.get(entry.doc_id).building)\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[0] == "[] [] ()"


@pytest.mark.parametrize("thread, load_after", [(True, False), (False, True)])
def test_a_process_with_other_threads_or_opening_the_indexes_imports_them_before_the_worker_starts(
    tmp_path, thread, load_after
):
    """A module another thread was importing when the worker was forked stays locked in the worker for ever (an
    eval's second ingest, its first document's indexes loading in the builder thread, hung so): a process with
    other threads imports numpy, the LSA and whoosh itself before it forks the worker; so does one that opens
    the indexes next (``load_after_ingest``, the default: the worker inherits them instead of importing them a
    second time)."""
    import subprocess
    import sys
    from pathlib import Path

    pdf = tmp_path / "notes.pdf"
    pdf.write_bytes(pdfs.pdf_with_outline())
    script = (
        "import sys, threading\n"
        "from pathlib import Path\n"
        "from engine.config import EngineConfig, LibraryConfig\n"
        "from engine.library.isolation import read_pdf\n"
        "stop = threading.Event()\n"
        f"if {thread}:\n"
        "    threading.Thread(target=stop.wait, daemon=True).start()\n"
        f"config = EngineConfig(library=LibraryConfig(load_after_ingest={load_after}))\n"
        f"folder = Path({str(tmp_path)!r})\n"
        f"result = read_pdf(open({str(pdf)!r}, 'rb').read(), 'notes.pdf', config, lambda f, m: None,\n"
        "                  folder / 'dense.npz', folder / 'index')\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'whoosh', 'numpy'}), 'engine.retrieval.dense' in sys.modules)\n"
        "result.close()\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[0] == "['numpy', 'whoosh'] True"
