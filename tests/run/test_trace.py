"""The trace tells the truth: new pages only, cache hits counted, one fallback per cause, real targets only."""

from __future__ import annotations

from engine.api import answer
from engine.contracts import Budget, ParsedQuestion, TaskRequest, caveat
from engine.contracts import CaveatKind as K
from engine.library.local import Library
from engine.llm import rules_backend
from engine.run.budget import LoopGuard
from engine.run.calls import LlmCalls
from engine.samples import ensure_sample


def test_a_repeated_question_counts_its_cache_hits(config):
    library = Library(config)
    entry = ensure_sample(library)
    question = "What is the flight endurance of the Heron 3?"
    answer(question, [entry.doc_id], library=library, config=config, strategy="single_pass")
    again = answer(question, [entry.doc_id], library=library, config=config, strategy="single_pass")
    assert again.usage.cached_retrievals >= 1, "a retrieval the cache answered is shown, not hidden"


def test_narration_lists_only_the_pages_a_pass_added(config):
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("What kinds of filtering are applied to the turbidity readings?", [entry.doc_id],
                    library=library, config=config, strategy="dispatched")  # fmt: skip
    seen: set[int] = set()
    for record in result.history:
        pages = {p.page for p in record.pages_added}
        assert not pages & seen, f"pass {record.iteration} lists pages an earlier pass had: {pages & seen}"
        seen |= pages


def test_a_fallback_is_recorded_once_per_cause():
    guard = LoopGuard(Budget(max_llm_calls=0))
    llm = LlmCalls(backend=rules_backend(), rules=rules_backend(), guard=guard)
    for _ in range(3):
        llm.call("parse_question", TaskRequest(question="q"), ParsedQuestion, "rules")
    assert len(llm.fallbacks) == 1


def test_no_pending_reference_for_a_table_already_in_the_evidence(config):
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("What is the flight endurance of the Heron 3?", [entry.doc_id], library=library, config=config)
    assert not any(c.kind == K.PENDING_REFERENCE for c in result.answer.caveats), result.answer.caveats
    assert result.answer.pending_references == ()


def test_no_pending_reference_to_a_target_no_document_has():
    from engine.contracts import AnswerWithEvidence
    from engine.run.refiners import _real_references

    class _State:  # only what _real_references reads
        def __init__(self) -> None:
            self.indexes: list = []
            self.layer1_indexes: list = []
            self.ledger: dict = {}

    answer_ = AnswerWithEvidence(
        text="t",
        pending_references=("Note 2.0",),
        caveats=(caveat(K.PENDING_REFERENCE, "Note 2.0"),),
    )
    checked = _real_references(answer_, _State())  # type: ignore[arg-type]
    assert checked.pending_references == () and not checked.caveats


def test_the_refiners_run_in_their_declared_order_each_with_its_reason():
    from engine.run.refiners import REFINERS

    names = [r.name for r in REFINERS]
    assert names.index("citations") < names.index("signals"), "signals read only citations that hold"
    assert names.index("signals") < names.index("real_references") < names.index("unfetched_references")
    assert names[-6] == "values", "a value read leads the answer the other refiners checked"
    assert names[-5] == "extremes", "a superlative's pick from a table leads over a value read for the measure"
    assert names[-4:] == ["fields", "outline", "procedures", "contacts"], (
        "forms, structure, how-to, contacts: own rules"
    )
    assert len(set(names)) == len(names) and all(r.reason for r in REFINERS)
