"""AppTest of a replica of the app on a team library: documents and runs of another replica show up."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.history import open_run_store
from engine.library import open_library
from tests.app.conftest import APP

pytestmark = pytest.mark.postgres

QUESTION = "How much water does the Kestrel pump station move?"


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "The Kestrel pump station moves 40 litres per second.", fontsize=11)
    return doc.tobytes()


def test_a_replica_lists_the_documents_and_runs_of_another(pg_url: str, library_dir: Path, tmp_path: Path) -> None:
    other = EngineConfig(library=LibraryConfig(path=str(tmp_path / "replica-a")))
    library = open_library(other)
    entry = library.ingest(_pdf(), "kestrel.pdf")
    answer(QUESTION, [entry.doc_id], library=library, store=open_run_store(other))

    at = AppTest.from_file(APP, default_timeout=30).run()  # this replica: LOUPE_LIBRARY=library_dir
    at.switch_page("pages/3_Library.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "kestrel.pdf" in set(at.dataframe[0].value["document"])
    at.switch_page("pages/6_History.py").run()
    assert not at.exception and not at.error
    assert QUESTION in set(at.dataframe[0].value["question"])
    assert not (library_dir / entry.doc_id).exists()  # nothing of it in this replica's folder but caches
