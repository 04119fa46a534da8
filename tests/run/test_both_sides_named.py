"""A question asked of two named things side by side is answered for both, from the rows each one's table holds."""

from __future__ import annotations

from engine.api import answer
from engine.contracts import AnswerWithEvidence, Citation, caveat
from engine.contracts import CaveatKind as K
from engine.library.local import Library
from engine.run.steps import below_the_line
from engine.samples import ensure_sample


def test_a_value_asked_of_two_named_things_is_read_for_both(config) -> None:
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("How long does a battery swap take on the Heron 2 and on the Heron 3?", [entry.doc_id],
                    library=library, config=config, strategy="auto")  # fmt: skip
    text = result.answer.text
    assert "Heron 2: about 25 min" in text and "Heron 3: under 5 min" in text, text
    assert "higher by" not in text, "no exact gap is stated between an approximate and a bounding value"
    assert {c.page for c in result.answer.citations if c.role == "answer"} >= {3, 4}
    assert result.answer.complete_answer_found and not result.answer.uncovered_sides


def test_an_answer_under_the_claim_line_is_not_called_complete() -> None:
    cited = (Citation(chunk_id="d:p1:b0", doc_id="d", page=1, quote="Harbourline Ferries, Inc. | March 14, 2034"),)
    weak = AnswerWithEvidence(
        text="Harbourline Ferries, Inc.", citations=cited, complete_answer_found=True, confidence=0.29
    )
    held = below_the_line(weak, 0.6)
    assert not held.complete_answer_found and held.text == weak.text
    assert held.caveats == (caveat(K.UNCLAIMED, figures=(0.29, 0.6)),)
    sure = weak.model_copy(update={"confidence": 0.8})
    assert below_the_line(sure, 0.6) == sure
