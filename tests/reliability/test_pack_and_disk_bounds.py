"""Evidence packs, exports, a full disk and the embeddings endpoint stay within their bounds.

A 5-page, 2.7 KB PDF gave a 32.3 MB evidence pack (PyMuPDF's Story stored the page images decoded);
``export RUN --format md --out DIR/`` wrote a stray ``DIR-images/`` and then failed with "Is a directory"; a full
disk during ingest exited 0 with some 60 lines of chained tracebacks; the embeddings endpoint ignored the question's
seconds budget (63.6 s for a 5 s budget) and all-zero vectors were accepted and cached.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pymupdf
import pytest

from engine.config import REPO_ROOT, BackendConfig
from engine.contracts import PageRef
from engine.errors import LoupeError
from engine.history.sqlite import FILE_NAME, SqliteRunStore
from engine.llm.embeddings import OpenAIEmbedder
from engine.llm.network import allow_network
from engine.present.export import MAX_PACK_MB, build_pack, export_run
from engine.retrieval.protocols import EmbeddingError
from tests.app.factories import run_result
from tests.reliability import pdfs
from tests.reliability.conftest import run_cli, snapshot
from tests.reliability.fault_server import FaultServer


def _five_page_pdf() -> bytes:
    doc = pymupdf.open()
    for n in range(5):
        page = doc.new_page()
        for line in range(40):
            page.insert_text((72, 72 + 17 * line), f"Line {line} of page {n + 1}: turbidity at station {line}.")
    return doc.tobytes()


def _five_page_run():
    result = run_result()
    doc = result.docs[0].doc_id
    return result.model_copy(
        update={"evidence_pages": tuple(PageRef(doc_id=doc, file_name="report.pdf", page=p) for p in range(1, 6))}
    )


def test_a_five_page_pack_is_under_the_size_bound_and_keeps_its_images() -> None:
    data = _five_page_pdf()
    pack = build_pack(_five_page_run(), lambda doc_id: data)
    assert len(pack.images) == 5
    pdf = pack.pdf()
    assert len(pdf) < MAX_PACK_MB * 1_000_000, f"{len(pdf) / 1e6:.1f} MB"
    with pymupdf.open(stream=pdf, filetype="pdf") as out:
        images = [img for page in out for img in page.get_images(full=True)]
        assert len(images) >= 5
        first = pymupdf.Pixmap(out, images[0][0])
        assert first.width > 500, "the images kept their resolution"


def test_export_into_an_existing_folder_writes_inside_it(tmp_path: Path) -> None:
    data = _five_page_pdf()
    folder = tmp_path / "packs"
    folder.mkdir()
    written = export_run(_five_page_run(), lambda doc_id: data, "md", folder)
    assert all(folder in p.parents for p in written) and written[0].suffix == ".md"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packs"], "something was written beside the folder"


def test_export_that_cannot_be_written_refuses_before_writing_anything(tmp_path: Path) -> None:
    result = _five_page_run().model_copy(update={"run_id": "20260101-000000-abcdef"})
    out = tmp_path / "pack.md"
    (tmp_path / "pack-images").write_text("a file where the images folder should go")
    before = snapshot(tmp_path)
    with pytest.raises(LoupeError, match="images folder"):
        export_run(result, lambda doc_id: _five_page_pdf(), "md", out)
    taken = tmp_path / "box"
    (taken / f"loupe-{result.run_id}.md").mkdir(parents=True)  # the file name inside the folder is a folder
    with pytest.raises(LoupeError, match="is a folder"):
        export_run(result, lambda doc_id: _five_page_pdf(), "md", taken)
    assert {k: v for k, v in snapshot(tmp_path).items() if not k.startswith("box")} == before


@pytest.mark.timeout(180)
def test_cli_export_to_a_folder_path_writes_inside_it(library_dir: Path, tmp_path: Path) -> None:
    result = run_result().model_copy(update={"run_id": "20260101-000000-abcdef"})
    SqliteRunStore(library_dir / FILE_NAME).save(result)
    target = tmp_path / "out"
    proc = run_cli(["export", result.run_id, "--format", "md", "--out", f"{target}/"], library_dir)
    assert proc.returncode == 0, proc.stderr
    assert target.is_dir() and (target / f"loupe-{result.run_id}.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["library", "out"], "a stray folder beside the target"


# ------------------------------------------------------------------------------------------------
# A full disk during ingest
# ------------------------------------------------------------------------------------------------


def _tmpfs_available() -> bool:
    import os

    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True, timeout=30)  # fmt: skip
    return probe.returncode == 0


@pytest.mark.skipif(not _tmpfs_available(), reason="needs unshare and mount (root) for a small tmpfs")
@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", ["100k", "400k"])
def test_a_full_disk_during_ingest_is_one_clear_error(size: str, tmp_path: Path) -> None:
    """100 KB: the entry itself cannot be written; 400 KB: the entry fits, its background indexes do not."""
    import os

    pdf = tmp_path / "register.pdf"
    pdf.write_bytes(pdfs.distinct_pages_pdf(300))
    library = tmp_path / "library"
    library.mkdir()
    env = {**os.environ, "LOUPE_LIBRARY": str(library), "PYTHONPATH": str(REPO_ROOT)}
    script = 'mount -t tmpfs -o size="$0" tmpfs "$1" && shift && exec "$@"'
    proc = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, size, str(library), sys.executable, "-m", "engine", "ingest", str(pdf)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) <= 4, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and ("space" in last or "disk is full" in last), last


# ------------------------------------------------------------------------------------------------
# The embeddings endpoint
# ------------------------------------------------------------------------------------------------


@pytest.fixture
def zero_vectors() -> Iterator[str]:
    """An embeddings endpoint on 127.0.0.1 that answers every text with an all-zero vector."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            texts = body.get("input") or []
            data = [{"object": "embedding", "index": n, "embedding": [0.0] * 8} for n in range(len(texts))]
            blob = json.dumps({"object": "list", "data": data, "model": "zero"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(blob)))
            self.end_headers()
            self.wfile.write(blob)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _embedder(base_url: str, run_deadline=None) -> OpenAIEmbedder:
    config = BackendConfig(kind="openai", base_url=base_url, api_key="sk-test-embed", model="embedder",
                           timeout_seconds=30, max_retries=0)  # fmt: skip
    return OpenAIEmbedder(config, run_deadline)


def test_all_zero_vectors_are_refused(zero_vectors: str) -> None:
    with allow_network(), pytest.raises(EmbeddingError, match="all-zero"):
        _embedder(zero_vectors).embed(["turbidity at the north station"])


def test_embeddings_calls_end_with_the_questions_seconds_budget() -> None:
    """A caller's own deadline is far off; the question's budget ends first and the slow request is abandoned."""
    import time

    with FaultServer("slow", delay=20) as slow, allow_network():
        ends = time.monotonic() + 4.0
        with pytest.raises(EmbeddingError):
            _embedder(slow.base_url, lambda: ends).embed(["a question"], time.monotonic() + 60)
        with pytest.raises(EmbeddingError, match="seconds budget is spent"):
            _embedder(slow.base_url, lambda: time.monotonic() - 1).embed(["a question"])
        assert slow.count() == 1, "a request was sent after the question's budget was spent"
