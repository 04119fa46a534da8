"""The design's worked example on the real Transformer paper (skips without ../shared)."""

from __future__ import annotations

from engine.api import answer
from engine.library.local import Library

QUESTION = "What regularization techniques does the Transformer paper use, and where do they show the impact on BLEU?"


def test_worked_example(shared_dir, config):
    library = Library(config)
    pdf = shared_dir / "corpus" / "papers" / "attention_is_all_you_need.pdf"
    entry = library.ingest(pdf.read_bytes(), pdf.name)
    result = answer(QUESTION, [entry.doc_id], strategy="dispatched", library=library)
    on = {name for name, d in result.activations.items() if d.on}
    assert on == {
        "toc_retrieval",
        "keyword_retrieval",
        "two_hop_references",
        "listing_aggregation",
        "iterative_feedback",
    }
    # Table 3 (page 9) reaches the evidence: by the two-hop pattern when a cited passage names it before
    # any search found its page, else by the search for the new vocabulary (a pending reference is raised
    # only for a target not already in the evidence)
    table_pass = next((r for r in result.history if 9 in {p.page for p in r.pages_added}), None)
    assert table_pass is not None, "Table 3 (page 9) reaches the evidence"
    if table_pass.trigger == "pending_references":
        assert "Table 3" in table_pass.narration
    else:
        assert table_pass.action_taken in ("retrieve", "expand_keywords"), table_pass.narration
    two_hop = [r for r in result.history if r.trigger == "pending_references"]
    assert not any("Table 3" in r.narration for r in two_hop if r is not table_pass), "Table 3 is fetched once"
    assert 8 in {p.page for p in result.evidence_pages}, "Section 5.4 is cited"
    fetched = {p.page for r in result.history for p in r.pages_added}
    assert {7, 8, 9} <= fetched, "Section 5.4 (pages 7-8) and Table 3 (page 9) reach the evidence"
    assert result.answer.expected_count == 3
    assert not result.exhausted
