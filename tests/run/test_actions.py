"""Loop actions, each tested on a small run state: which references a two-hop pass follows."""

from __future__ import annotations

from types import SimpleNamespace

from engine.contracts import AnswerWithEvidence, Chunk, Hit
from engine.run.actions import _references

from .factories import question


def _state(mentions: dict[str, str], named: tuple[str, ...] = ()) -> SimpleNamespace:
    """A run whose evidence holds one chunk per retriever, each with the given text."""
    ledger = {}
    for n, (retriever, text) in enumerate(mentions.items()):
        chunk = Chunk(chunk_id=f"d:p{n + 1}:b0", doc_id="d", page=n + 1, index=0, text=text, bboxes=((0, 0, 1, 1),))
        ledger[chunk.chunk_id] = SimpleNamespace(hit=Hit(chunk=chunk, score=1.0, retriever=retriever, rank=1))  # type: ignore[arg-type]
    return SimpleNamespace(parsed=question(references=named), ledger=ledger, resolved_references=set())


def _pending(*references: str) -> AnswerWithEvidence:
    return AnswerWithEvidence(text="x", confidence=0.1, pending_references=references)


def test_a_reference_a_searched_passage_mentions_is_followed():
    state = _state({"keyword": "Turbidity per station is listed in Table 3."})
    plan = _references(state, _pending("Table 3"))
    assert plan is not None and plan.detail == "Table 3"


def test_a_reference_only_a_fetched_reference_page_mentions_is_a_third_hop_and_is_not_followed():
    state = _state({"keyword": "Results are in Table 3.", "two_hop": "Table 3: as in Figure 9, stations ..."})
    plan = _references(state, _pending("Table 3", "Figure 9"))
    assert plan is not None and plan.detail == "Table 3", "Figure 9 is only a lead from the Table 3 page"
    assert _references(state, _pending("Figure 9")) is None


def test_a_reference_the_question_names_is_always_followed():
    state = _state({"two_hop": "see Figure 9"}, named=("Figure 9",))
    plan = _references(state, _pending("Figure 9"))
    assert plan is not None and plan.detail == "Figure 9"


def test_a_complete_answer_below_the_claim_line_is_widened_and_a_sure_one_is_not():
    from engine.config import EngineConfig
    from engine.run.actions import _widen

    state = SimpleNamespace(parsed=question(), activations=SimpleNamespace(is_on=lambda pattern: False),
                            config=EngineConfig())  # fmt: skip
    unsure = AnswerWithEvidence(text="x", confidence=0.4, complete_answer_found=True)
    plan = _widen(state, unsure)
    assert plan is not None and plan.action == "enable_dense", "complete but unsure: meaning-based search next"
    sure = AnswerWithEvidence(text="x", confidence=0.8, complete_answer_found=True)
    assert _widen(state, sure) is None
