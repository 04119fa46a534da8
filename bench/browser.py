"""Browser timings of the app (Debian chromium via Playwright): upload to first answer, page switches.

    python bench/browser.py [--pdf FILE.pdf] [--question "..."] [--switches 3]

Starts ``streamlit run app.py`` on a free port over an empty temporary library (the bundled sample is
ingested on the first page load, before any timing), then in one headless chromium page:

1. upload to first answer: the PDF is handed to the uploader; as soon as the document shows in the
   document picker the question is sent; the clock stops when the answer's evidence-pack button shows and
   the app is idle. Printed beside it: the ingest part (upload until picked), the answer part in the page
   and the engine's own latency of that run (``usage.latency_ms`` from the history file), so the gap
   between the page and the engine shows;
2. page switches: Ask -> History -> Library -> Inspect -> Ask, ``--switches`` rounds; a switch ends when
   the page's title shows and the app is idle. The first round is cold (first visit of each page in this
   process), the others warm: min / median per page.

Raw PyMuPDF ``get_text("dict")`` of the PDF is measured in a fresh process just before, for scale.
Skips cleanly (exit 0) when chromium, playwright or ../shared is missing. Never downloads a browser.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO, run_child

CHROMIUM = (Path("/usr/lib/chromium/chromium"), Path("/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip
DEFAULT_PDF = CORPUS / "filings" / "3M_2018_10K.pdf"
DEFAULT_QUESTION = "What was the total revenue in 2018?"
WAIT_MS = 240_000
PAGES = (("History", "History"), ("Library", "Library"), ("Inspect", "Inspect"), ("Ask", "Ask"))
"""(navigation link, title the page draws)."""
GOALS = {"first": 8.0, "switch": 1.0}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(library: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    env = {**os.environ, "LOUPE_LIBRARY": str(library), "LOUPE_NO_NETWORK": "1", "PYMUPDF_SUGGEST_LAYOUT_ANALYZER": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
         "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return proc, url
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("streamlit did not start: " + log.read_text()[-2000:])


def _idle(page) -> None:
    """Until the app's run indicator is gone (the script run finished)."""
    page.wait_for_timeout(50)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden", timeout=WAIT_MS)


def _saved_runs(library: Path) -> int:
    try:
        with sqlite3.connect(library / "history.sqlite3") as db:
            return int(db.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.Error:
        return 0


def _wait_for_answer(page, library: Path) -> float:
    """Until the answer's evidence-pack button shows; returns when the run was saved (the engine's part done)."""
    saved = None
    deadline = time.perf_counter() + WAIT_MS / 1000
    while time.perf_counter() < deadline:
        if saved is None and _saved_runs(library) > 0:
            saved = time.perf_counter()
        if (
            page.get_by_text("Evidence pack (PDF)").count()
            and page.get_by_text("Evidence pack (PDF)").first.is_visible()
        ):
            return saved if saved is not None else time.perf_counter()
        page.wait_for_timeout(100)
    raise TimeoutError("no answer showed")


def _engine_ms(library: Path) -> float | None:
    try:
        with sqlite3.connect(library / "history.sqlite3") as db:
            row = db.execute("SELECT result_json FROM runs ORDER BY created_at DESC, rowid DESC").fetchone()
    except sqlite3.Error:
        return None
    return float(json.loads(row[0])["usage"]["latency_ms"]) if row else None


def measure(pdf: Path, question: str, switches: int, executable: str) -> dict:
    from playwright.sync_api import expect, sync_playwright

    out: dict = {}
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        library = Path(folder) / "library"
        library.mkdir()
        proc, url = _start(library, Path(folder) / "streamlit.log")
        try:
            browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
            page = browser.new_page(viewport={"width": 1500, "height": 1200})
            page.set_default_timeout(WAIT_MS)
            page.goto(url)
            page.locator("[data-testid='stChatInputTextArea']").wait_for()
            _idle(page)  # the sample is in; nothing of the timed document is

            started = time.perf_counter()
            page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(pdf))
            expect(page.locator("[data-testid='stMultiSelect']")).to_contain_text(pdf.name[:20], timeout=WAIT_MS)
            box = page.locator("[data-testid='stChatInputTextArea']")
            box.wait_for()
            picked = time.perf_counter()
            box.fill(question)
            box.press("Enter")
            run_done = _wait_for_answer(page, library)
            _idle(page)
            answered = time.perf_counter()
            out.update(first=answered - started, ingest=picked - started, answer=answered - picked,
                       run=run_done - picked,
                       engine_ms=_engine_ms(library))  # fmt: skip

            times: dict[str, list[float]] = {name: [] for name, _ in PAGES}
            for _ in range(switches):
                for link, title in PAGES:
                    t0 = time.perf_counter()
                    page.locator("[data-testid='stSidebarNav'] a", has_text=link).click()
                    page.get_by_role("heading", name=title).first.wait_for(timeout=WAIT_MS)
                    _idle(page)
                    times[link].append(time.perf_counter() - t0)
            out["switches"] = times
            if page.locator("[data-testid='stException']").count():
                out["exception"] = True
            browser.close()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--raw"]:
        from common import raw_dict_seconds

        pages, raw = raw_dict_seconds(Path(args[1]).read_bytes())
        print(json.dumps({"pages": pages, "raw": raw}))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, default=DEFAULT_PDF)
    parser.add_argument("--question", default=DEFAULT_QUESTION)
    parser.add_argument("--switches", type=int, default=3)
    options = parser.parse_args(args)
    executable = next((str(c) for c in CHROMIUM if c.exists()), None)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        executable = None
    if executable is None or not options.pdf.is_file():
        print("skipped: chromium, playwright or the PDF is missing")
        return 0
    reference = run_child(Path(__file__), ["--raw", str(options.pdf)])
    found = measure(options.pdf, options.question, max(2, options.switches), executable)
    engine_s = found["engine_ms"] / 1000 if found.get("engine_ms") is not None else float("nan")
    print(f"{options.pdf.name}: {reference['pages']} pages, raw get_text('dict') {reference['raw']:.2f} s")
    verdict = "PASS" if found["first"] <= GOALS["first"] else "FAIL"
    print(f"  upload -> first answer      s  {found['first']:.2f}   goal <= {GOALS['first']:g}: {verdict}")
    print(f"    upload -> document picked s  {found['ingest']:.2f}")
    print(f"    question -> answer shown  s  {found['answer']:.2f}   (engine's own latency {engine_s:.2f} s, "
          f"gap {found['answer'] - engine_s:.2f} s)")  # fmt: skip
    print(f"      question -> run saved   s  {found['run']:.2f}   (then the page is drawn again with the answer)")
    for name, values in found["switches"].items():
        warm = values[1:]
        verdict = "PASS" if statistics.median(warm) <= GOALS["switch"] else "FAIL"
        print(f"  switch to {name:<9} s  cold {values[0]:.2f}   warm min / median {min(warm):.2f} / "
              f"{statistics.median(warm):.2f}   goal <= {GOALS['switch']:g}: {verdict}")  # fmt: skip
    if found.get("exception"):
        print("  (the page showed an exception)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
