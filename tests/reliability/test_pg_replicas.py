"""Several processes sharing one PostgreSQL database, each with its own local library folder (app replicas,
CLIs on different machines): what one ingests or asks, the others list and answer; concurrent ingests
of overlapping files end with one entry each; a process killed mid-ingest leaves nothing behind."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from engine.config import REPO_ROOT
from tests.reliability import pdfs
from tests.reliability.conftest import run_cli

pytestmark = pytest.mark.postgres

QUESTION = "How many stations did the Heron survey measure?"


def _report(number: int, pages: int = 25) -> bytes:
    """Page 1 holds the survey, the last its results, the others filler that shares none of the question's words."""
    filler = [f"Report {number}, page {p}: the budget lists staff costs and travel." for p in range(2, pages)]
    return pdfs.text_pdf((f"Report {number}. " + pdfs.BODY, *filler,
                          f"Report {number} results: turbidity fell at nine of the twelve stations."))  # fmt: skip


def _json(proc: subprocess.CompletedProcess[str]) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT doc_id, count(*) FROM loupe_chunks GROUP BY doc_id").fetchall()
        docs = conn.execute("SELECT count(*) FROM loupe_documents").fetchone()
    return {"documents": int(docs[0]) if docs else 0, **{str(d): int(n) for d, n in rows}}


@pytest.mark.timeout(300)
def test_one_process_ingests_another_asks_and_both_list_the_run(pg_url: str, tmp_path: Path) -> None:
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(_report(1, pages=3))
    a, b, alone = tmp_path / "replica-a", tmp_path / "replica-b", tmp_path / "embedded"
    doc_id = _json(run_cli(["ingest", str(pdf), "--json"], a))["doc_id"]
    asked = _json(run_cli(["ask", "--doc", doc_id[:12], QUESTION, "--json", "--strategy", "dispatched"], b))
    assert "PostgreSQL" in asked["activations"]["keyword_retrieval"]["reason"]
    listed = [_json(run_cli(["runs", "list", "--json"], folder))["runs"] for folder in (a, b)]
    assert [r["run_id"] for r in listed[0]] == [r["run_id"] for r in listed[1]] == [asked["run_id"]]
    assert [d["doc_id"] for d in _json(run_cli(["library", "list", "--json"], b))["documents"]] == [doc_id]
    embedded = _json(run_cli(["ask", str(pdf), QUESTION, "--json", "--strategy", "dispatched"], alone,
                             LOUPE_DATABASE_URL=""))  # fmt: skip
    assert "Whoosh" in embedded["activations"]["keyword_retrieval"]["reason"]
    assert [p["page"] for p in asked["evidence_pages"]][:1] == [p["page"] for p in embedded["evidence_pages"]][:1]
    assert not (alone / ".pgcache").exists() and (b / ".pgcache" / doc_id).is_dir()


def _ask_in_child(files: tuple[Path, ...], library: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "engine", "ask", *map(str, files), QUESTION, "--json"],
        cwd=REPO_ROOT, env={**os.environ, "LOUPE_LIBRARY": str(library)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.mark.timeout(400)
def test_four_processes_ingesting_overlapping_files_and_asking_end_with_one_entry_each(
    pg_url: str, tmp_path: Path
) -> None:
    files = []
    for number in range(3):
        path = tmp_path / f"report-{number}.pdf"
        path.write_bytes(_report(number))
        files.append(path)
    pairs = [(0, 1), (1, 2), (2, 0), (0, 1)]
    procs = [_ask_in_child((files[i], files[j]), tmp_path / f"replica-{n}") for n, (i, j) in enumerate(pairs)]
    outputs = [p.communicate(timeout=360) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [err for _, err in outputs]
    ids = sorted(hashlib.sha256(f.read_bytes()).hexdigest() for f in files)
    listed = _json(run_cli(["library", "list", "--json"], tmp_path / "replica-x"))["documents"]
    assert sorted(d["doc_id"] for d in listed) == ids
    counts = _counts(pg_url)
    assert counts["documents"] == 3 and all(counts[d] == 25 for d in ids)  # one chunk per page, no duplicate rows
    assert len(_json(run_cli(["runs", "list", "--json"], tmp_path / "replica-x"))["runs"]) == 4


CHILD = r"""
import sys, time
import engine.library.pg_library as module
from engine.library import open_library

real = module.write_chunks
def write_then_hang(conn, doc, *collection):
    real(conn, doc, *collection)
    print("written", flush=True)
    time.sleep(120)
module.write_chunks = write_then_hang
open_library().ingest(open(sys.argv[1], "rb").read(), "killed.pdf")
"""


@pytest.mark.timeout(300)
def test_a_process_killed_inside_its_ingest_transaction_leaves_nothing(pg_url: str, tmp_path: Path) -> None:
    pdf = tmp_path / "killed.pdf"
    pdf.write_bytes(_report(7))
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(pdf)], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "LOUPE_LIBRARY": str(tmp_path / "killed"), "PYTHONPATH": str(REPO_ROOT)},
    )  # fmt: skip
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip() == "written", child.stderr.read() if child.stderr else ""
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert _counts(pg_url) == {"documents": 0}
    entry = _json(run_cli(["ingest", str(pdf), "--json"], tmp_path / "after"))
    assert entry["total_pages"] == 25 and _counts(pg_url)["documents"] == 1
