"""The bundled sample document: deterministic, and shaped to exercise every pattern."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from engine.samples import SAMPLE_QUESTIONS, build_sample_pdf, sample_doc_id


@pytest.fixture(scope="module")
def doc() -> pymupdf.Document:
    return pymupdf.open(stream=build_sample_pdf(), filetype="pdf")


def _page_of(doc: pymupdf.Document, needle: str) -> list[int]:
    return [p.number + 1 for p in doc if needle in p.get_text()]


def test_deterministic_and_id() -> None:
    data = build_sample_pdf()
    assert data == build_sample_pdf()
    assert data.startswith(b"%PDF")
    assert sample_doc_id() == hashlib.sha256(data).hexdigest()


def test_pages_outline_and_footer(doc: pymupdf.Document) -> None:
    assert 8 <= doc.page_count <= 12
    toc = doc.get_toc()
    assert {level for level, _, _ in toc} == {1, 2}
    assert all(re.match(r"^\d+(\.\d+)? ", title) for _, title, _ in toc)
    for page in doc:
        assert f"Page {page.number + 1} of {doc.page_count}" in page.get_text()


def test_heading_at_foot_with_body_on_next_page(doc: pymupdf.Document) -> None:
    page = _page_of(doc, "4 Sensor suite")[0]
    rects = doc[page - 1].search_for("4 Sensor suite")
    assert rects[0].y0 > doc[page - 1].rect.height * 0.8
    assert _page_of(doc, "We use three kinds of sensors") == [page + 1]


def test_table_three_referenced_earlier_and_is_a_grid(doc: pymupdf.Document) -> None:
    table_page = _page_of(doc, "Table 3: Measured")[0]
    mentions = _page_of(doc, "in Table 3")
    assert min(mentions) < table_page
    tables = doc[table_page - 1].find_tables().tables
    assert tables and tables[0].extract()[0] == ["Measure", "Heron 2", "Heron 3"]


def test_enumeration_bold_run_in_headers(doc: pymupdf.Document) -> None:
    bold = set()
    for page in doc:
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if span["flags"] & 16 and span["text"].strip().endswith("."):
                        bold.add((span["text"].strip(), page.number + 1))
    names = {text for text, _ in bold}
    assert {"Turbidity probe.", "Thermal camera.", "Multispectral imager."} <= names
    pages = {text: p for text, p in bold}
    assert pages["Multispectral imager."] != pages["Turbidity probe."]  # the third item is elsewhere


def test_two_versions_on_different_pages(doc: pymupdf.Document) -> None:
    assert _page_of(doc, "Heron 2 reaches a flight endurance") != _page_of(doc, "Heron 3 reaches a flight endurance")


def test_questions_cover_four_kinds() -> None:
    assert len(SAMPLE_QUESTIONS) == 4
    text = " ".join(SAMPLE_QUESTIONS)
    assert "Table 3" in text and "compare" in text and "three kinds" in text


def test_script_writes_file(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    run = subprocess.run([sys.executable, "-m", "engine.samples", str(out)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[1], timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert out.read_bytes() == build_sample_pdf()


def test_ensure_sample_is_idempotent(config) -> None:
    library_mod = pytest.importorskip("engine.library.local")
    from engine.samples import ensure_sample

    library = library_mod.Library(config)
    first = ensure_sample(library)
    second = ensure_sample(library)
    assert first.doc_id == second.doc_id == sample_doc_id()
    assert len(library.entries()) == 1


@pytest.mark.parametrize("strategy", ["single_pass", "auto", "dispatched"])
def test_the_comparison_suggestion_states_every_quantity_for_both_aircraft(config, strategy: str) -> None:
    import engine
    from engine.library.local import Library
    from engine.samples import ensure_sample

    entry = ensure_sample(Library(config))
    question = next(q for q in SAMPLE_QUESTIONS if " compare " in q)
    result = engine.answer(question, [entry.doc_id], strategy=strategy, config=config)
    text = result.answer.text
    for value in ("38 min", "52 min", "1.2 kg", "1.8 kg"):  # endurance and payload of the Heron 2 and the Heron 3
        assert value in text, text
    assert result.answer.complete_answer_found, result.answer.caveats
    assert "Heron 3 is higher by 14 min in flight endurance" in text and "higher by 0.6 kg" in text, text
