"""The CLI over the run history: ask prints a run_id and saves the run; runs list/show; export; follow-up."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from tests.test_cli import run


def _last_json(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.fixture
def sample_pdf(tmp_path: Path) -> Path:
    from engine.samples import build_sample_pdf

    path = tmp_path / "heron-note.pdf"
    path.write_bytes(build_sample_pdf())
    return path


def test_ask_saves_and_runs_list_show_export(sample_pdf: Path, library_dir: Path, tmp_path: Path) -> None:
    asked = run(["ask", str(sample_pdf), "What is the flight endurance of the Heron 3?", "--json"], library_dir)
    assert asked.returncode == 0, asked.stderr
    result = _last_json(asked.stdout)
    run_id = result["run_id"]
    assert run_id and result["created_at"]

    listed = run(["runs", "list", "--json"], library_dir)
    assert listed.returncode == 0, listed.stderr
    assert [r["run_id"] for r in _last_json(listed.stdout)["runs"]] == [run_id]
    human = run(["runs", "list"], library_dir)
    assert run_id in human.stdout and "Heron 3" in human.stdout

    shown = run(["runs", "show", run_id[:-2], "--json"], library_dir)
    assert shown.returncode == 0, shown.stderr
    assert _last_json(shown.stdout) == result

    out = tmp_path / "pack.pdf"
    exported = run(["export", run_id, "--format", "pdf", "--out", str(out)], library_dir)
    assert exported.returncode == 0, exported.stderr
    doc = pymupdf.open(out)
    text = unicodedata.normalize("NFKC", " ".join(" ".join(p.get_text().split()) for p in doc))
    assert " ".join(result["answer"]["text"].split())[:50] in text
    assert sum(len(p.get_images()) for p in doc) >= 1

    md = tmp_path / "pack.md"
    assert run(["export", run_id, "--format", "md", "--out", str(md)], library_dir).returncode == 0
    assert "## Answer" in md.read_text() and list((tmp_path / "pack-images").glob("*.png"))


def test_follow_up_uses_the_runs_documents_and_links_back(sample_pdf: Path, library_dir: Path) -> None:
    first = _last_json(run(["ask", str(sample_pdf), "What is the flight endurance of the Heron 3?", "--json"],
                           library_dir).stdout)  # fmt: skip
    proc = run(["ask", "--follow-up", first["run_id"], "What is the maximum payload of the Heron 3?", "--json"],
               library_dir)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    second = _last_json(proc.stdout)
    assert second["follow_up_of"] == first["run_id"] and second["docs"] == first["docs"]
    listed = _last_json(run(["runs", "list", "--json"], library_dir).stdout)["runs"]
    assert [r["run_id"] for r in listed] == [second["run_id"], first["run_id"]]


def test_ask_by_doc_id(sample_pdf: Path, library_dir: Path) -> None:
    doc_id = _last_json(run(["ingest", str(sample_pdf), "--json"], library_dir).stdout)["doc_id"]
    proc = run(["ask", "--doc", doc_id[:12], "What three kinds of sensors do the survey flights use?", "--json"],
               library_dir)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _last_json(proc.stdout)["docs"][0]["doc_id"] == doc_id
    libs = _last_json(run(["library", "list", "--json"], library_dir).stdout)["documents"]
    assert [d["doc_id"] for d in libs] == [doc_id]


@pytest.mark.parametrize(
    "args",
    [
        ["runs", "show", "nope"],
        ["runs", "show", "../../etc/passwd"],
        ["runs", "delete", "nope"],
        ["export", "nope", "--format", "pdf", "--out", "x.pdf"],
        ["ask", "--follow-up", "nope", "And why?"],
        ["ask", "--follow-up", "nope", "file.pdf", "And why?"],
        ["ask", "--doc", "abcdef12", "What?"],
        ["runs", "list", "--limit", "0"],
    ],
)
def test_bad_history_input_exits_2_with_one_line(args: list[str], library_dir: Path) -> None:
    proc = run(args, library_dir)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in proc.stderr


def test_runs_list_on_an_empty_history(library_dir: Path) -> None:
    proc = run(["runs", "list"], library_dir)
    assert proc.returncode == 0 and "no saved runs" in proc.stdout
