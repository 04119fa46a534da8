"""Scanned pages are read with Tesseract (through PyMuPDF), page by page, bounded in time, and marked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.config import REPO_ROOT, EngineConfig, LibraryConfig
from engine.documents.ocr import tessdata_folder
from engine.errors import DocumentTooLargeError, NoTextLayerError
from engine.library.local import Library
from tests.reliability import pdfs

SENTENCE = "turbidity fell at nine of the twelve stations"


@pytest.fixture(scope="module")
def scan() -> bytes:
    return pdfs.scanned_copy(pdfs.text_pdf())


@pytest.fixture
def tesseract() -> str:
    folder = tessdata_folder()
    if folder is None:
        if os.environ.get("CI"):
            pytest.fail("Tesseract is missing in CI (.ci/run installs tesseract-ocr and tesseract-ocr-eng)")
        pytest.skip("Tesseract with English is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")
    return folder


def _cli(args: list[str], library_dir: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "LOUPE_LIBRARY": str(library_dir), **env},
    )  # fmt: skip


def test_the_scan_has_no_text_layer(scan: bytes) -> None:
    import pymupdf

    assert all(not page.get_text().strip() for page in pymupdf.open(stream=scan, filetype="pdf"))


@pytest.mark.timeout(300)
def test_a_scanned_copy_is_ingested_and_search_finds_its_sentence(
    scan: bytes, tesseract: str, library_dir: Path, tmp_path: Path
) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scan)
    ingested = _cli(["ingest", str(path), "--json"], library_dir)
    assert ingested.returncode == 0, ingested.stderr
    profile = json.loads(ingested.stdout.strip().splitlines()[-1])
    assert profile["ocr_pages"] == [1, 2] and profile["is_likely_scanned"]
    found = _cli(["search", str(path), SENTENCE, "--json"], library_dir)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout.strip().splitlines()[-1])["hits"]
    assert hits and hits[0]["page"] == 2 and "nine of the twelve" in " ".join(hits[0]["text"].split())


@pytest.mark.timeout(300)
def test_ocr_reports_progress_page_by_page(scan: bytes, tesseract: str, config: EngineConfig) -> None:
    events: list[str] = []
    entry = Library(config).ingest(scan, "scan.pdf", progress=lambda fraction, message: events.append(message))
    assert [e for e in events if e.startswith("OCR of page")] == ["OCR of page 1 of 2", "OCR of page 2 of 2"]
    assert entry.profile.ocr_pages == (1, 2)


@pytest.mark.timeout(300)
def test_ocr_of_a_page_is_bounded_in_time(scan: bytes, tesseract: str, library_dir: Path) -> None:
    config = EngineConfig(library=LibraryConfig(path=str(library_dir), max_ocr_page_seconds=0.05))
    with pytest.raises(DocumentTooLargeError, match=r"OCR of page 1 took longer than 0.05 s"):
        Library(config).ingest(scan, "scan.pdf")
    assert Library(config).entries() == []


@pytest.mark.timeout(300)
def test_without_tesseract_a_scan_gets_the_clear_message(scan: bytes, library_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scan)
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TESSDATA_PREFIX"}
    proc = subprocess.run(
        [sys.executable, "-m", "engine", "ingest", str(path)], cwd=REPO_ROOT, capture_output=True, text=True,
        timeout=300, env={**env, "PATH": str(empty), "LOUPE_LIBRARY": str(library_dir)},
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "no text layer (it looks like a scan)" in lines[0] and "tesseract" in lines[0].lower()


def test_ocr_switched_off_refuses_a_scan(scan: bytes, library_dir: Path) -> None:
    config = EngineConfig(library=LibraryConfig(path=str(library_dir), ocr=False))
    with pytest.raises(NoTextLayerError, match="no text layer"):
        Library(config).ingest(scan, "scan.pdf")
