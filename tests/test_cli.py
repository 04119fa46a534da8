"""The CLI contract: JSON on the last line, exit 2 with one `error:` line on bad input, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from engine.config import REPO_ROOT
from tests.run.conftest import build_report_pdf


def run(args: list[str], library: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_LIBRARY": str(library), "LOUPE_NO_NETWORK": "1"}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, env=env, timeout=120)  # fmt: skip


@pytest.fixture
def report_pdf(tmp_path: Path) -> Path:
    path = tmp_path / "heron.pdf"
    path.write_bytes(build_report_pdf())
    return path


def library_entries(library: Path) -> list[str]:
    return sorted(p.name for p in library.iterdir() if not p.name.startswith("."))


def test_ingest_json(report_pdf, library_dir):
    proc = run(["ingest", str(report_pdf), "--json"], library_dir)
    assert proc.returncode == 0, proc.stderr
    profile = json.loads(proc.stdout.strip().splitlines()[-1])
    assert profile["total_pages"] == 3 and profile["has_usable_toc"] is True
    assert len(library_entries(library_dir)) == 1


def test_search_json_hits_have_pages(report_pdf, library_dir):
    proc = run(["search", str(report_pdf), "median smoothing", "--k", "3", "--json"], library_dir)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout.strip().splitlines()[-1])["hits"]
    assert 1 <= len(hits) <= 3 and hits[0]["page"] == 2


def test_ask_json_is_a_run_result(report_pdf, library_dir):
    proc = run(["ask", str(report_pdf), "What mean turbidity does Table 3 report for Station B?",
                "--strategy", "dispatched", "--max-iterations", "2", "--json"], library_dir)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["budget"]["max_iterations"] == 2
    assert result["activations"]["two_hop_references"]["on"] is True
    assert result["evidence_pages"]


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _encrypted(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="pw", owner_pw="owner")
    return path


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda tmp: tmp / "missing.pdf", "no such file"),
        (lambda tmp: _write(tmp / "empty.pdf", b""), "empty"),
        (lambda tmp: _write(tmp / "notes.pdf", b"just some text"), "not a PDF"),
        (lambda tmp: _write(tmp / "cut.pdf", build_report_pdf()[:300]), "PDF"),
        (_encrypted, "password"),
    ],
    ids=["missing", "empty", "not-pdf", "truncated", "encrypted"],
)
def test_bad_input_exits_2_with_one_line(tmp_path, library_dir, make, fragment):
    path = make(tmp_path)
    for args in (["ingest", str(path)], ["ask", str(path), "What is this?"]):
        proc = run(args, library_dir)
        assert proc.returncode == 2
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
        assert fragment.lower() in lines[0].lower()
        assert "Traceback" not in proc.stderr + proc.stdout
    assert library_entries(library_dir) == []


def test_ask_needs_a_question(report_pdf, library_dir):
    proc = run(["ask", str(report_pdf)], library_dir)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ")


def test_the_eval_and_calibrate_arguments_are_read_only_for_those_commands():
    """Their arguments come from modules that import the evaluation harness: a command line of another command
    parses without importing them, and ``eval`` still parses its own flags (and refuses unknown ones)."""
    script = (
        "import sys\n"
        "from engine.cli.main import _parser\n"
        "args = _parser().parse_args(['ingest', 'a.pdf', '--json'])\n"
        "print(args.command, args.json, 'engine.eval' in sys.modules, 'engine.cli.calibrate' in sys.modules)\n"
        "args = _parser().parse_args(['eval', 'set.jsonl', '--limit', '3', '--strategies', 'auto'])\n"
        "print(args.command, args.limit, args.strategies, 'engine.eval' in sys.modules)\n"
        "print(_parser().parse_args(['calibrate', '--l2', '0.5']).l2)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["ingest True False False", "eval 3 auto True", "0.5"]
    bad = run(["eval", "set.jsonl", "--no-such-flag"], REPO_ROOT / "no-library")
    assert bad.returncode == 2 and "--no-such-flag" in bad.stderr


def test_the_command_line_leaves_its_objects_out_of_the_collectors_last_pass(report_pdf, library_dir):
    """``python -m engine`` freezes what is left before it exits (interpreter exit then skips a collection
    over the whole parse, a tenth of a second on a long document); exit handlers still run."""
    script = (
        "import atexit, gc, runpy, sys\n"
        f"sys.argv = ['engine', 'ingest', {str(report_pdf)!r}]\n"
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
        "runpy.run_module('engine', run_name='__main__')\n"
    )
    env = {**os.environ, "LOUPE_LIBRARY": str(library_dir), "LOUPE_NO_NETWORK": "1"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, env=env,
                         timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[-1] == "frozen at exit: True"
    assert len(library_entries(library_dir)) == 1
