"""Tests of engine.documents.profile (the cheap document probe)."""

from __future__ import annotations

import hashlib

import pytest

from engine.config import EngineConfig
from engine.documents.profile import looks_tabular, probe_pdf, suggest_strategy
from engine.errors import EncryptedPdfError, NotAPdfError
from tests import pdfs


def test_outline_document_profile():
    data = pdfs.pdf_with_outline()
    profile = probe_pdf(data, "outline.pdf", EngineConfig())
    assert profile.doc_id == hashlib.sha256(data).hexdigest()
    assert profile.file_name == "outline.pdf"
    assert (profile.total_pages, profile.text_pages, profile.toc_entries) == (4, 4, 5)
    assert profile.has_usable_toc and not profile.is_likely_scanned and not profile.has_tables
    assert profile.suggested_strategy == "dispatched"


def test_plain_short_document_gets_single_pass():
    profile = probe_pdf(pdfs.pdf_listing(), "list.pdf", EngineConfig())
    assert not profile.has_usable_toc and profile.toc_entries == 0 and not profile.has_tables
    assert profile.suggested_strategy == "single_pass"


def test_table_document_has_tables():
    profile = probe_pdf(pdfs.pdf_with_table(), "table.pdf", EngineConfig())
    assert profile.has_tables and profile.suggested_strategy == "dispatched"


def test_scanned_document():
    profile = probe_pdf(pdfs.pdf_scanned(3), "scan.pdf", EngineConfig())
    assert profile.is_likely_scanned and profile.text_pages == 0 and profile.total_pages == 3


def test_malformed_outline_counts_only_valid_entries():
    profile = probe_pdf(pdfs.pdf_malformed_outline(), "bad.pdf", EngineConfig())
    assert profile.toc_entries == 3 and profile.has_usable_toc


@pytest.mark.parametrize(
    ("data", "error"), [(pdfs.not_a_pdf(), NotAPdfError), (pdfs.pdf_encrypted(), EncryptedPdfError)]
)
def test_probe_rejects_unreadable_files(data, error):
    with pytest.raises(error):
        probe_pdf(data, "x.pdf", EngineConfig())


def test_looks_tabular():
    assert looks_tabular("Results\nTable 2: Scores by model\nfoo")
    rows = "\n".join(f"Row {i} 12.{i} 40.{i} 7{i}%" for i in range(10))
    assert looks_tabular("Heading\n" + rows)
    prose = "\n".join("This is a sentence of ordinary prose without numbers in it." for _ in range(20))
    assert not looks_tabular(prose)
    assert not looks_tabular("As shown in Table 2 the results improve.")


@pytest.mark.parametrize(
    ("toc", "pages", "tables", "expected"),
    [(True, 5, False, "dispatched"), (False, 21, False, "dispatched"), (False, 5, True, "dispatched"),
     (False, 20, False, "single_pass")],
)  # fmt: skip
def test_suggest_strategy(toc, pages, tables, expected):
    assert suggest_strategy(toc, pages, tables) == expected


def test_transformer_paper_probe_is_cheap(shared_dir):
    data = (shared_dir / "corpus/papers/attention_is_all_you_need.pdf").read_bytes()
    probe_pdf(data, "warm-up", EngineConfig())
    profile = probe_pdf(data, "attention.pdf", EngineConfig())
    assert profile.total_pages == 15 and profile.toc_entries == 22 and profile.has_usable_toc
    assert profile.text_pages == 15 and not profile.is_likely_scanned
