"""The structural page guard: nested form draws counted exactly, bombs found without inflating them."""

from __future__ import annotations

import pymupdf
import pytest

from engine.config import LibraryConfig
from engine.documents.pdf_guard import MAX_FORM_DRAWS, check_page_content
from engine.errors import DocumentTooLargeError
from tests.reliability import pdfs

LIMITS = LibraryConfig()


def _check(data: bytes, limits: LibraryConfig = LIMITS) -> None:
    pdf = pymupdf.open(stream=data, filetype="pdf")
    check_page_content(pdf, pdf.load_page(0), limits, {})


def test_forms_drawn_below_the_limit_pass() -> None:
    _check(pdfs.nested_forms_pdf(depth=3, fan=10))  # 10 + 100 + 1000 draws
    _check(pdfs.text_pdf())


def test_nested_draws_past_the_limit_are_refused() -> None:
    assert MAX_FORM_DRAWS < 10 + 100 + 1000 + 10_000
    with pytest.raises(DocumentTooLargeError, match="nested forms"):
        _check(pdfs.nested_forms_pdf(depth=4, fan=10))


def test_a_form_drawn_many_times_counts_its_size_each_time() -> None:
    # 1 MB of text operators in a form drawn 40 times: 40 MB over the 32 MB limit (one form alone is fine)
    with pytest.raises(DocumentTooLargeError, match="MB of drawing instructions"):
        _check(pdfs.form_flate_bomb_pdf(1, draws=40))
    _check(pdfs.form_flate_bomb_pdf(1, draws=20))


def test_a_flate_bomb_in_a_form_is_refused_without_inflating_it_all() -> None:
    with pytest.raises(DocumentTooLargeError, match="MB of drawing instructions"):
        _check(pdfs.form_flate_bomb_pdf(200))


def test_the_page_content_limit_still_applies() -> None:
    with pytest.raises(DocumentTooLargeError):
        _check(pdfs.huge_content_stream_pdf(40))
    _check(pdfs.huge_content_stream_pdf(40), LibraryConfig(max_page_content_mb=64))
