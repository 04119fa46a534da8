"""Code's reading of the model's small replies: citations, support, completeness, plans."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contracts import CaveatKind as K
from engine.contracts import EvidenceItem, ExecutionPlan, PlanStep
from engine.llm.wire import NOT_FOUND_TEXT, WireAnswer, WireStatement, answer_from_wire, repair_plan

EVIDENCE = (
    EvidenceItem(chunk_id="a:p4:b1", doc_id="a", file_name="a.pdf", page=4,
                 text="The Kestrel reservoir holds 41 million cubic metres. It was built in 1971."),
    EvidenceItem(chunk_id="a:p7:b0", doc_id="a", file_name="a.pdf", page=7,
                 text="Operating revenue was 88.4 million euros, up from 83.1 million euros."),
)  # fmt: skip


def answer(*statements: tuple[str, tuple[int, ...]], found: bool = True, missing: tuple[str, ...] = ()):
    wire = WireAnswer(statements=tuple(WireStatement(text=t, passages=p) for t, p in statements),
                      answer_found=found, missing=missing)  # fmt: skip
    return answer_from_wire(wire, EVIDENCE, max_citations=6)


def test_citation_page_and_document_come_from_the_chunk_and_the_quote_from_its_text():
    result = answer(("The Kestrel reservoir holds 41 million cubic metres.", (1,)))
    (citation,) = result.citations
    assert (citation.chunk_id, citation.doc_id, citation.page) == ("a:p4:b1", "a", 4)
    assert citation.quote == "The Kestrel reservoir holds 41 million cubic metres."
    assert result.complete_answer_found and result.answer_found and result.confidence >= 0.85


def test_a_wrong_passage_number_is_replaced_by_the_supporting_passage():
    result = answer(("Operating revenue was 88.4 million euros.", (1,)))
    assert [c.page for c in result.citations] == [7]
    assert result.validation_failures and "does not support" in result.validation_failures[0]


def test_an_uncited_statement_is_matched_to_its_passage():
    result = answer(("The reservoir was built in 1971.", ()))
    assert [c.page for c in result.citations] == [4]


def test_a_statement_with_a_number_no_passage_states_is_left_out_with_a_caveat():
    result = answer(("The Kestrel reservoir holds 41 million cubic metres.", (1,)),
                    ("The Kestrel reservoir holds 95 million cubic metres.", (1,)))  # fmt: skip
    assert "95" not in result.text and "41" in result.text
    assert any(c.kind == K.UNSUPPORTED_STATEMENT and "95" in c.detail for c in result.caveats)
    assert not result.complete_answer_found and result.confidence < 0.85


def test_an_answer_with_no_supported_statement_is_not_found():
    result = answer(("The dam is painted blue.", (1,)))
    assert not result.answer_found and not result.citations and result.text == NOT_FOUND_TEXT
    assert result.confidence <= 0.1 and not result.complete_answer_found


def test_missing_parts_make_the_answer_incomplete():
    result = answer(("Operating revenue was 88.4 million euros.", (2,)), missing=("net income",))
    assert result.answer_found and not result.complete_answer_found
    assert any(c.kind == K.NOT_IN_PASSAGES and "net income" in c.detail for c in result.caveats)


def test_a_passage_number_out_of_range_is_a_validation_failure():
    result = answer(("Operating revenue was 88.4 million euros.", (0, 5, 2)))
    assert [c.page for c in result.citations] == [7]
    assert sorted(result.validation_failures) == ["passage [0] does not exist", "passage [5] does not exist"]


def plan(*steps: tuple[str, str, tuple[str, ...]]) -> ExecutionPlan:
    return ExecutionPlan(steps=tuple(PlanStep(step_id=i, query=q, depends_on=d) for i, q, d in steps))


def test_repair_drops_unused_unknown_self_and_later_dependencies():
    repaired, notes = repair_plan(plan(("s1", "first", ("s9", "s1", "s2")), ("s2", "second", ())))
    assert [s.depends_on for s in repaired.steps] == [(), ()]
    assert len(notes) == 3


def test_repair_adds_the_dependency_a_placeholder_names():
    repaired, notes = repair_plan(plan(("s1", "first", ()), ("s2", "after {s1}", ())))
    assert repaired.steps[1].depends_on == ("s1",) and len(notes) == 1


def test_repair_leaves_an_unclear_placeholder_for_the_plan_check():
    repaired, notes = repair_plan(plan(("s1", "about {s7}", ("s7",))))
    assert repaired.steps[0].depends_on == ("s7",) and not notes


def test_question_parts_keep_the_questions_own_words_and_expansions_extend_the_query():
    from engine.llm.wire import WireQuestion, question_from_wire

    question = "What was the revenue in 2021 and how many employees were there?"
    wire = WireQuestion(intent="multi_hop", keywords=("revenue", "employees"),
                        parts=("revenue in 2021", "number of employees"), expansions=("net sales", "headcount"))  # fmt: skip
    parsed = question_from_wire(wire, question)
    assert [p.keywords for p in parsed.parts] == [("revenue", "2021"), ("employees",)]
    assert parsed.retrieval.expansions == ("net sales", "headcount")
    assert parsed.retrieval.main_query == "revenue employees net sales headcount"
    single = question_from_wire(WireQuestion(intent="single_fact", parts=("revenue",)), question)
    assert single.parts == (), "one part is no multi-part question"


# ---- whatever a model writes, code's reading of it never fails ------------------------------------

_TEXT = st.text(max_size=60)
_INTENTS = st.sampled_from(["single_fact", "comparison", "multi_hop", "listing", "section_retrieval", "open_scoped",
                            "open_corpus_wide", "vague"])  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(intent=_INTENTS, keywords=st.lists(_TEXT, max_size=8), sides=st.lists(_TEXT, max_size=4),
       parts=st.lists(_TEXT, max_size=4), expansions=st.lists(_TEXT, max_size=6), question=_TEXT)  # fmt: skip
def test_any_question_reply_converts(intent, keywords, sides, parts, expansions, question):
    from engine.llm.wire import WireQuestion, question_from_wire

    wire = WireQuestion(intent=intent, keywords=tuple(keywords), sides=tuple(sides), parts=tuple(parts),
                        expansions=tuple(expansions))  # fmt: skip
    parsed = question_from_wire(wire, question or "?")
    assert parsed.original_question == (question or "?")


@settings(max_examples=150, deadline=None)
@given(statements=st.lists(st.tuples(_TEXT, st.lists(st.integers(-3, 9), max_size=4)), max_size=6),
       found=st.booleans(), missing=st.lists(_TEXT, max_size=4))  # fmt: skip
def test_any_answer_reply_converts_and_cites_only_given_passages(statements, found, missing):
    result = answer(*((t, tuple(p)) for t, p in statements), found=found, missing=tuple(missing))
    assert {c.chunk_id for c in result.citations} <= {e.chunk_id for e in EVIDENCE}
    assert 0.0 <= result.confidence <= 1.0
