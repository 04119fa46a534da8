"""The CLI's error paths: every bad input is one ``error:`` line naming what is wrong, exit 2.

Found: pydantic's raw text for bad budget flags; a folder, FIFO or /dev/zero reported as "no such
file"; ``search --k 1`` with the fused retriever returning 3 hits; a read-only or missing library
folder ending in "unexpected failure".
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.config import REPO_ROOT, LibraryConfig
from engine.documents.parsing import open_pdf
from engine.errors import DocumentTooLargeError
from tests.reliability import pdfs
from tests.reliability.conftest import run_cli

QUESTION = "What did the Heron survey measure?"


def _one_error_line(proc) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-800:])
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "Traceback" not in proc.stderr and "unexpected failure" not in lines[0]
    return lines[0]


@pytest.fixture
def heron(tmp_path: Path) -> Path:
    path = tmp_path / "heron.pdf"
    path.write_bytes(pdfs.text_pdf())
    return path


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        ("--max-iterations", "9", "--max-iterations must be less than or equal to 4"),
        ("--max-llm-calls", "-3", "--max-llm-calls must be greater than or equal to 0"),
        ("--max-seconds", "nan", "--max-seconds must be a finite number"),
        ("--max-seconds", "inf", "--max-seconds must be a finite number"),
    ],
)
def test_bad_budget_flag_names_the_flag(flag: str, value: str, expected: str, heron: Path, library_dir: Path) -> None:
    line = _one_error_line(run_cli(["ask", str(heron), QUESTION, flag, value], library_dir))
    assert expected in line, line
    assert "validation error" not in line and "pydantic" not in line, line
    assert not any(library_dir.iterdir()), "a bad flag still ingested the file"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
def test_a_path_that_is_not_a_file_says_what_it_is(kind: str, tmp_path: Path, library_dir: Path) -> None:
    if kind == "folder":
        path, expected = tmp_path, "is a folder"
    elif kind == "fifo":
        path, expected = tmp_path / "pipe.pdf", "not a regular file"
        os.mkfifo(path)
    else:
        path, expected = Path("/dev/zero"), "not a regular file"
    line = _one_error_line(run_cli(["ingest", str(path)], library_dir, timeout=30))
    assert expected in line and "no such file" not in line, line


@pytest.mark.timeout(60)
def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path, library_dir: Path) -> None:
    path = tmp_path / "huge.pdf"
    from engine.config import BYTES_PER_MB

    with path.open("wb") as handle:  # sparse: 101 MB on paper, nothing on disk
        handle.write(b"%PDF-1.7\n")
        handle.truncate(101 * BYTES_PER_MB)
    line = _one_error_line(run_cli(["ingest", str(path)], library_dir))
    assert "101.0 MB" in line and "100 MB limit" in line, line


@pytest.mark.timeout(60)
def test_unreadable_file_is_one_clear_line(heron: Path, library_dir: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every file")
    heron.chmod(0)
    line = _one_error_line(run_cli(["ingest", str(heron)], library_dir))
    assert "ermission" in line, line


@pytest.mark.timeout(60)
def test_library_folder_that_is_a_file_is_one_clear_line(heron: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the library should be")
    _one_error_line(run_cli(["ingest", str(heron)], blocker))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("k", [1, 2])
def test_search_returns_at_most_k_hits(k: int, tmp_path: Path, library_dir: Path) -> None:
    path = tmp_path / "pages.pdf"
    path.write_bytes(pdfs.text_pdf([f"Page {n}: turbidity readings of station {n}." for n in range(1, 7)]))
    proc = run_cli(["search", str(path), "turbidity station", "--k", str(k), "--json"], library_dir)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout.strip().splitlines()[-1])["hits"]
    assert 1 <= len(hits) <= k, hits


def test_engine_and_uploader_count_megabytes_alike() -> None:
    """Streamlit's uploader says "100 MB" for 100,000,000 bytes; the engine admits exactly as much."""
    import tomllib

    from engine.config import BYTES_PER_MB

    upload_mb = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())["server"]["maxUploadSize"]
    limits = LibraryConfig(max_file_mb=upload_mb)
    assert BYTES_PER_MB == 1_000_000
    over = b"%PDF-1.7\n" + b"\0" * (upload_mb * BYTES_PER_MB - 8)
    with pytest.raises(DocumentTooLargeError):
        open_pdf(over, limits)
    small = LibraryConfig(max_file_mb=1)
    with pytest.raises(DocumentTooLargeError, match=r"1\.0 MB, over the 1 MB"):
        open_pdf(b"%PDF-1.7\n" + b"\0" * (BYTES_PER_MB - 8), small)
