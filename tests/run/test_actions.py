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


def test_a_part_no_cited_passage_answers_is_searched_with_the_answers_new_terms():
    from engine.contracts import CaveatKind as K
    from engine.contracts import QuestionPart, caveat
    from engine.run.actions import _uncovered_part

    parsed = question("Which sensors are fitted, and where is their accuracy shown?", keywords=("sensors", "accuracy"))
    parts = (QuestionPart(text="Which sensors are fitted", keywords=("sensors",)),
             QuestionPart(text="where is their accuracy shown", keywords=("accuracy",)))  # fmt: skip
    seen: list[str] = []
    state = SimpleNamespace(parsed=parsed.model_copy(update={"parts": parts}),
                            guard=SimpleNamespace(is_new_query=lambda q: q not in seen))  # fmt: skip
    missing = AnswerWithEvidence(text="x", confidence=0.2, discovered_keywords=("Sonar Array", "sensors"),
                                 caveats=(caveat(K.PARTS_UNCOVERED, "where is their accuracy shown"),))  # fmt: skip
    plan = _uncovered_part(state, missing)
    assert plan is not None and plan.detail == "part:accuracy Sonar Array"
    covered = missing.model_copy(update={"caveats": ()})
    assert _uncovered_part(state, covered) is None
    seen.append("accuracy Sonar Array")
    assert _uncovered_part(state, missing) is None, "a query already run is not run again"


def test_new_passages_are_not_measured_against_an_answer_that_leaves_a_part_uncovered():
    from engine.contracts import CaveatKind as K
    from engine.contracts import Citation, caveat
    from engine.run.strategies.dispatched import _strengths

    state = SimpleNamespace(ledger={"d:p1:b0": object()}, question_strength=lambda ids: 0.5)
    cited = (Citation(chunk_id="d:p1:b0", doc_id="d", page=1, quote="x"),)
    whole = AnswerWithEvidence(text="x", confidence=0.3, citations=cited)
    assert _strengths(state, whole, ["d:p2:b0"]) == (0.5, 0.5)
    part_open = whole.model_copy(update={"caveats": (caveat(K.PARTS_UNCOVERED, "where is it shown"),)})
    assert _strengths(state, part_open, ["d:p2:b0"]) is None, "a passage about the open part may cover less"
