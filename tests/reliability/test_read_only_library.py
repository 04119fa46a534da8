"""A library folder that cannot be written stays readable (issue 14, item 8): the CLI and every page can
list and ask about the ingested documents; adding or deleting is one clear error."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from engine.config import EngineConfig, LibraryConfig
from engine.library.local import Library
from engine.samples import ensure_sample
from tests.reliability import pdfs
from tests.reliability.readonly import python_read_only, read_only_available, run_read_only

pytestmark = pytest.mark.skipif(read_only_available() is not None, reason=str(read_only_available()))

QUESTION = "How many stations saw turbidity fall?"


@pytest.fixture
def filled(library_dir: Path, tmp_path: Path) -> tuple[Path, str]:
    """A library holding the heron report (indexes built) and its PDF outside the library."""
    library = Library(EngineConfig(library=LibraryConfig(path=str(library_dir))))
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    library.wait_for_background()
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(pdfs.text_pdf())
    return pdf, doc_id


def _cli(library_dir: Path, *args: str):
    return run_read_only(library_dir, [sys.executable, "-m", "engine", *args])


@pytest.mark.timeout(300)
def test_cli_searches_and_asks_in_a_read_only_library(filled: tuple[Path, str], library_dir: Path) -> None:
    pdf, doc_id = filled
    found = _cli(library_dir, "search", str(pdf), "turbidity stations", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout.strip().splitlines()[-1])["hits"]
    asked = _cli(library_dir, "ask", str(pdf), QUESTION, "--json")
    assert asked.returncode == 0, asked.stderr
    result = json.loads(asked.stdout.strip().splitlines()[-1])
    assert result["answer"]["text"] and result["docs"][0]["doc_id"] == doc_id


@pytest.mark.timeout(300)
def test_cli_lists_documents_and_saved_runs_of_a_read_only_library(filled: tuple[Path, str], library_dir: Path) -> None:
    import os
    import subprocess

    pdf, doc_id = filled
    env = {**os.environ, "LOUPE_LIBRARY": str(library_dir)}
    saved = subprocess.run([sys.executable, "-m", "engine", "ask", str(pdf), QUESTION, "--json"], env=env,
                           capture_output=True, text=True, timeout=180)  # fmt: skip
    run_id = json.loads(saved.stdout.strip().splitlines()[-1])["run_id"]
    listed = _cli(library_dir, "library", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert doc_id in listed.stdout
    runs = _cli(library_dir, "runs", "list", "--json")
    assert runs.returncode == 0, runs.stderr
    assert run_id in runs.stdout
    asked = _cli(library_dir, "ask", str(pdf), QUESTION, "--json")
    assert asked.returncode == 0, asked.stderr
    unsaved = json.loads(asked.stdout.strip().splitlines()[-1])["run_id"]
    after = _cli(library_dir, "runs", "list", "--json")
    assert run_id in after.stdout and unsaved not in after.stdout, "a read-only library stored a run"


@pytest.mark.timeout(300)
def test_cli_ingest_into_a_read_only_library_is_one_clear_error(
    filled: tuple[Path, str], library_dir: Path, tmp_path: Path
) -> None:
    other = tmp_path / "annex.pdf"
    other.write_bytes(pdfs.text_pdf(("Annex: rainfall totals per basin.",)))
    before = sorted(p.name for p in library_dir.iterdir())
    proc = _cli(library_dir, "ingest", str(other))
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "read-only" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in library_dir.iterdir()) == before


_API = """
import json, shutil
from engine.api import answer
from engine.config import EngineConfig
from engine.errors import LibraryReadOnlyError
from engine.library.local import Library
out = {}
library = Library(EngineConfig())
out["read_only"] = library.read_only
out["entries"] = [e.doc_id for e in library.entries()]
out["hits"] = len(library.load(DOC).search("turbidity", "keyword", k=3).hits)
out["dense"] = len(library.load(DOC).dense.search("turbidity survey", 3).hits)
out["answer"] = answer("QUESTION", [DOC], library=library).answer.text
for action in ("ingest", "delete"):
    try:
        library.ingest(b"%PDF-1.7 new", "new.pdf") if action == "ingest" else library.delete(DOC)
        out[action] = "allowed"
    except LibraryReadOnlyError as error:
        out[action] = str(error)
print(json.dumps(out))
"""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("indexes", ["built", "missing"])
def test_the_api_reads_and_answers_but_refuses_writes(
    indexes: str, filled: tuple[Path, str], library_dir: Path
) -> None:
    _, doc_id = filled
    if indexes == "missing":  # the ingesting process died before its background build: built in memory now
        shutil.rmtree(library_dir / doc_id / "index")
        (library_dir / doc_id / "dense.npz").unlink()
    code = _API.replace("DOC", repr(doc_id)).replace("QUESTION", QUESTION)
    proc = python_read_only(library_dir, code)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["read_only"] is True and out["entries"] == [doc_id]
    assert out["hits"] > 0 and out["dense"] > 0 and out["answer"]
    for action in ("ingest", "delete"):
        assert "read-only" in out[action] and "\n" not in out[action]
    assert (library_dir / doc_id / "manifest.json").is_file()


_PAGES = """
import json
from streamlit.testing.v1 import AppTest
from tests.app.test_pages import APP, PAGES
problems = {}
for page in [None, *PAGES] if WANTED is None else WANTED:
    at = AppTest.from_file(APP, default_timeout=60).run()
    if page:
        at.switch_page(page).run()
    shown = [e.value for e in at.exception] + [e.value for e in at.error]
    if shown:
        problems[page or "home"] = [str(s)[:300] for s in shown]
print(json.dumps({"pages": len(PAGES) + 1 if WANTED is None else len(WANTED), "problems": problems}))
"""
SAMPLE_PAGES = [None, "pages/2_Compare.py", "pages/3_Library.py"]
"""The pages that add the bundled sample (the home page asks on it; Compare and Library list it): without a
sample in a read-only library each must say so. Every page runs the home page first, and each attempt to add
the sample reads the whole PDF before the write is refused, so the other pages (checked with the sample
ingested) are not run again here."""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("sample", ["ingested", "absent"])
def test_every_page_renders_on_a_read_only_library(sample: str, library_dir: Path) -> None:
    library = Library(EngineConfig(library=LibraryConfig(path=str(library_dir))))
    if sample == "ingested":
        ensure_sample(library)
        library.wait_for_background()
    wanted = None if sample == "ingested" else SAMPLE_PAGES
    proc = python_read_only(library_dir, _PAGES.replace("WANTED", repr(wanted)), timeout=540)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["pages"] > 1
    if sample == "ingested":
        assert out["problems"] == {}, out["problems"]
    else:  # the sample cannot be added: a message on the pages that need it, never a traceback
        shown = [text for texts in out["problems"].values() for text in texts]
        assert set(out["problems"]) == {"home", *SAMPLE_PAGES[1:]}, out["problems"]
        assert all("read-only" in text and "Traceback" not in text for text in shown), shown
