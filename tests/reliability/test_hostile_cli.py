"""Hostile input through ``python -m engine ingest``: exit 2, one ``error:`` line, no traceback."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from tests.reliability import pdfs
from tests.reliability.conftest import entry_dirs, run_cli

CASES = {
    "empty": (lambda: b"", ("empty",)),
    "not_a_pdf": (lambda: b"PK\x03\x04 this is a zip file really" * 50, ("pdf",)),
    "truncated": (pdfs.truncated_pdf, ("pdf",)),
    "encrypted": (pdfs.encrypted_pdf, ("password",)),
    "image_only": (pdfs.image_only_pdf, ("ocr",)),
    "lying_page_count": (pdfs.lying_page_count_pdf, ()),
    "shared_kids_bomb": (pdfs.shared_kids_bomb_pdf, ()),
}


def _assert_clean_failure(proc, library_dir: Path, words: tuple[str, ...] = ()) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, f"expected one stderr line, got: {proc.stderr!r}"
    assert lines[0].startswith("error: "), lines[0]
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    assert "unexpected failure" not in lines[0], lines[0]
    if words:
        assert any(w in lines[0].lower() for w in words), f"{lines[0]!r} lacks any of {words}"
    assert entry_dirs(library_dir) == [], "a rejected file became a library entry"
    return lines[0]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_rejects_hostile_file(case: str, tmp_path: Path, library_dir: Path) -> None:
    make, words = CASES[case]
    path = tmp_path / f"{case}.pdf"
    path.write_bytes(make())
    proc = run_cli(["ingest", str(path)], library_dir)
    _assert_clean_failure(proc, library_dir, words)


@pytest.mark.timeout(90)
def test_cli_rejects_2000_pages_with_default_limit_quickly(
    tmp_path: Path, library_dir: Path, two_thousand_pages: bytes
) -> None:
    path = tmp_path / "register.pdf"
    path.write_bytes(two_thousand_pages)
    proc = run_cli(["ingest", str(path)], library_dir)
    line = _assert_clean_failure(proc, library_dir)
    assert "2000" in line, line


@pytest.mark.timeout(90)
def test_cli_rejects_200000_page_objects(tmp_path: Path, library_dir: Path, many_page_objects: bytes) -> None:
    path = tmp_path / "objects.pdf"
    path.write_bytes(many_page_objects)
    _assert_clean_failure(run_cli(["ingest", str(path)], library_dir), library_dir)


@pytest.mark.timeout(120)
def test_cli_content_bomb_is_bounded(tmp_path: Path, library_dir: Path, content_bomb: bytes) -> None:
    path = tmp_path / "bomb.pdf"
    path.write_bytes(content_bomb)
    proc = run_cli(["ingest", str(path)], library_dir, timeout=100)
    if proc.returncode != 0:
        _assert_clean_failure(proc, library_dir)


@pytest.mark.timeout(60)
def test_cli_missing_file_is_one_error_line(tmp_path: Path, library_dir: Path) -> None:
    _assert_clean_failure(run_cli(["ingest", str(tmp_path / "nope.pdf")], library_dir), library_dir, ("no such file",))


@pytest.mark.timeout(60)
def test_cli_control_characters_in_file_name_are_sanitised(tmp_path: Path, library_dir: Path) -> None:
    path = tmp_path / "bad\x1b[31mname\r\x7f.pdf"
    path.write_bytes(pdfs.text_pdf())
    proc = run_cli(["ingest", str(path), "--json"], library_dir)
    assert proc.returncode == 0, proc.stderr
    profile = json.loads(proc.stdout.strip().splitlines()[-1])
    assert not any(unicodedata.category(ch) == "Cc" for ch in profile["file_name"]), profile["file_name"]
    manifests = [json.loads(p.read_text()) for p in library_dir.rglob("manifest.json")]
    assert len(manifests) == 1
    assert not any(unicodedata.category(ch) == "Cc" for ch in manifests[0]["file_name"])
    assert (library_dir / profile["doc_id"] / "original.pdf").is_file()
