"""A census question end to end (offline backend): the figures of a paper's appendix are counted from
their captions by code, each caption cited where it stands, with no answer call to the backend."""

from __future__ import annotations

import pymupdf

import engine
from engine.config import EngineConfig
from engine.contracts import CaveatKind as K
from engine.library.local import Library
from engine.present.caveat_text import caveat_texts

TEXT = "We study how annotators verify scientific claims against tables and report agreement. " * 5


def _paper() -> bytes:
    """Two figures in the body, a reference list, then a lettered appendix with three figures (one of
    them mentioned in the text before its caption) and a table."""
    pages = [
        f"<h1>1 Introduction</h1><p>{TEXT}</p><p>Figure 1: The verification pipeline.</p>",
        f"<h1>2 Results</h1><p>{TEXT}</p><p>Figure 2: Agreement by annotator.</p>",
        "<h1>References</h1><p>Smith, J. 2020. Claims and tables. In Proceedings of ACL.</p>",
        f"<h1>A Annotation Interface</h1><p>Figure 3 shows the interface. {TEXT}</p>"
        "<p>Figure 3: The claim extraction interface.</p>",
        f"<h1>B Error Cases</h1><p>{TEXT}</p><p>Figure 4: Error cases 1-3.</p><p>Table 1: Error types.</p>",
        f"<p>{TEXT}</p><p>Figure 5: Error cases 4 and 5.</p>",
    ]
    doc = pymupdf.open()
    for html in pages:
        page = doc.new_page()
        page.insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css="* {font-family: sans-serif; font-size: 11px;}")
    return doc.tobytes()


def test_the_figures_of_the_appendix_are_counted_from_their_captions(config: EngineConfig) -> None:
    library = Library(config)
    doc_id = library.ingest(_paper(), "paper.pdf").doc_id
    result = engine.answer(  # the census's own verdict; the calibrated one is tests/reading/test_calibration.py's
        "How many figures are in the appendix of the paper?",
        [doc_id],
        strategy="auto",
        config=config,
        calibrate=False,
    )
    answer = result.answer
    assert result.strategy_effective == "dispatched", result.strategy_reason
    assert answer.text.startswith("3 figures in the appendix"), answer.text
    assert all(f"Figure {n}:" in answer.text for n in (3, 4, 5)) and "Figure 2" not in answer.text
    assert [(c.page, c.role) for c in answer.citations[:3]] == [(4, "answer"), (5, "answer"), (6, "answer")]
    assert answer.complete_answer_found and answer.confidence >= config.generation.min_claim_confidence
    assert any(c.kind == K.CENSUS_LABELS_ONLY for c in answer.caveats)
    assert any("without such a label" in c for c in caveat_texts(answer.caveats))
    assert "counted in code" in result.activations.listing_aggregation.reason
    assert result.usage.llm_calls <= 1, "the question is parsed; the count needs no answer call"


def test_a_document_without_labelled_figures_is_answered_as_before(config: EngineConfig) -> None:
    library = Library(config)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), f"<h1>Overview</h1><p>{TEXT}</p>")
    doc_id = library.ingest(doc.tobytes(), "plain.pdf").doc_id
    result = engine.answer("How many figures are in the document?", [doc_id], strategy="auto", config=config)
    assert "figures in the document" not in result.answer.text
    assert not result.answer.complete_answer_found
