"""A keyword index the library builds is searched as built (its in-memory copy), and the files it leaves
in the entry rank exactly like it when a later process opens them."""

from __future__ import annotations

import shutil

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
