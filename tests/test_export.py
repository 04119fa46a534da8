"""The evidence pack: Markdown (image files or inline) and PDF, with untrusted text escaped."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.errors import DocumentNotFoundError, LoupeError
from engine.library.local import Library
from engine.present.export import build_pack, escape_inline, escape_markdown, export_run
from engine.samples import ensure_sample

HOSTILE = "What about <script>alert(1)</script> and [a link](javascript:x) **bold** $x$ :red[boom]?"


@pytest.fixture
def run_and_library(config: EngineConfig):
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("What mean turbidity does Table 3 report for the Heron 3 flights?", [entry.doc_id],
                    config=config, library=library)  # fmt: skip
    return result, library


def _pdf_text(data: bytes) -> str:
    doc = pymupdf.open(stream=data, filetype="pdf")
    return unicodedata.normalize("NFKC", " ".join(" ".join(page.get_text().split()) for page in doc))


def test_pdf_holds_the_answer_citations_and_page_images(run_and_library) -> None:
    result, library = run_and_library
    data = build_pack(result, library.pdf_bytes).pdf()
    doc = pymupdf.open(stream=data, filetype="pdf")
    text = _pdf_text(data)
    assert " ".join(result.answer.text.split())[:60] in text
    assert "How Loupe searched" in text and "What each pass did" in text and "Allowance used" in text
    assert f"page {result.evidence_pages[0].page}" in text
    assert sum(len(page.get_images()) for page in doc) == len(result.evidence_pages) >= 1


def test_markdown_with_image_files(run_and_library, tmp_path: Path) -> None:
    result, library = run_and_library
    written = export_run(result, library.pdf_bytes, "md", tmp_path / "pack.md")
    text = (tmp_path / "pack.md").read_text()
    images = [p for p in written if p.suffix == ".png"]
    assert len(images) == len(result.evidence_pages) and all(p.read_bytes().startswith(b"\x89PNG") for p in images)
    assert f"](pack-images/{images[0].name})" in text
    assert "## Answer" in text and "| pattern | on | reason |" in text and result.run_id in text


def test_markdown_inline_images_are_data_uris(run_and_library) -> None:
    result, library = run_and_library
    text = build_pack(result, library.pdf_bytes).markdown(image_dir=None)
    assert text.count("](data:image/png;base64,") == len(result.evidence_pages)


def test_untrusted_text_is_escaped_in_both(run_and_library) -> None:
    result, library = run_and_library
    hostile = result.model_copy(
        update={"question": HOSTILE, "answer": result.answer.model_copy(update={"text": HOSTILE})}
    )
    pack = build_pack(hostile, library.pdf_bytes)
    markdown = pack.markdown()
    assert "<script>" not in markdown and "[a link](" not in markdown and "**bold**" not in markdown
    assert "\\<script\\>" in markdown and "\\$x\\$" in markdown and ":red\\[boom\\]" in markdown
    html = pack.html()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<script>alert(1)</script>" in _pdf_text(pack.pdf())  # shown literally, as text


def test_escape_helpers_keep_plain_text_readable() -> None:
    assert escape_inline("Revenue 12:30, 3.5 million (2023)") == "Revenue 12:30, 3.5 million (2023)"
    assert escape_inline("# not a heading") == "\\# not a heading"
    assert escape_inline("1. not a list") == "1\\. not a list"
    assert escape_markdown("line one\n\n- two") == "line one  \n\\- two"


def test_a_deleted_document_is_listed_as_missing(run_and_library) -> None:
    result, _ = run_and_library

    def gone(doc_id: str) -> bytes:
        raise DocumentNotFoundError("no document in the library; upload it first")

    pack = build_pack(result, gone)
    assert not pack.images and len(pack.missing) == len(result.evidence_pages)
    assert "image unavailable" in pack.markdown()
    assert pymupdf.open(stream=pack.pdf(), filetype="pdf").page_count >= 1


def test_unknown_format_is_refused(run_and_library, tmp_path: Path) -> None:
    result, library = run_and_library
    with pytest.raises(LoupeError, match="md or pdf"):
        export_run(result, library.pdf_bytes, "docx", tmp_path / "x.docx")
