"""One or more cases per dispatcher rule, and the worked example of the design."""

from __future__ import annotations

import pytest

from engine.contracts import PATTERN_NAMES
from engine.run.decide import decide
from engine.run.strategies import STRATEGIES
from tests.run.factories import profile, question

CASES = [
    # (id, parsed kwargs, profile kwargs, pattern, expected on, reason fragment)
    ("toc-outline", {}, {"toc": 22}, "toc_retrieval", True, "usable outline (22 entries)"),
    ("toc-section-named", {"section_hint": "5.4"}, {}, "toc_retrieval", True, "names section 5.4"),
    ("toc-none", {}, {"toc": 1}, "toc_retrieval", False, "no usable outline"),
    ("keyword-always", {}, {}, "keyword_retrieval", True, "every question"),
    ("dense-open", {"intent": "open_scoped"}, {}, "dense_retrieval", True, "open scoped"),
    ("dense-vague", {"intent": "vague"}, {}, "dense_retrieval", True, "vague"),
    ("dense-no-keywords", {"keywords": ()}, {}, "dense_retrieval", True, "no specific keywords"),
    ("dense-scanned", {}, {"scanned": True}, "dense_retrieval", True, "OCR"),
    ("dense-specific", {}, {}, "dense_retrieval", False, "specific vocabulary"),
    ("two-hop-reference", {"references": ("Table 3",)}, {}, "two_hop_references", True, "names Table 3"),
    ("two-hop-section", {"section_hint": "Item 7"}, {}, "two_hop_references", True, "section Item 7"),
    ("two-hop-layout", {"layout_hint": "figure"}, {}, "two_hop_references", True, "figure"),
    ("two-hop-section-intent", {"intent": "section_retrieval"}, {}, "two_hop_references", True, "section retrieval"),
    ("two-hop-off", {}, {}, "two_hop_references", False, "nothing points outside"),
    ("listing-intent", {"intent": "listing"}, {}, "listing_aggregation", True, "listing intent"),
    ("listing-count", {"expected_count": 3}, {}, "listing_aggregation", True, "expects 3 items"),
    ("listing-off", {}, {}, "listing_aggregation", False, "does not ask for a list"),
    (
        "listing-census",
        {"text": "How many figures are in the appendix of the paper?"},
        {},
        "listing_aggregation",
        True,
        "figure labels of the appendix",
    ),
    (
        "adaptive-table-value",
        {"layout_hint": "table", "asks_for_value": True},
        {"tables": True},
        "adaptive_parsing",
        True,
        "table finder",
    ),
    ("adaptive-no-tables", {"layout_hint": "table", "asks_for_value": True}, {}, "adaptive_parsing", False, "garbled"),
    ("adaptive-named-table", {"references": ("Table 2",)}, {"tables": True}, "adaptive_parsing", True, "names Table 2"),
    ("adaptive-named-figure", {"references": ("Figure 2",)}, {"tables": True}, "adaptive_parsing", False, "garbled"),
    ("adaptive-off", {}, {"tables": True}, "adaptive_parsing", False, "layer-1 text is enough"),
    ("feedback-on", {}, {}, "iterative_feedback", True, "feedback signals"),
]


@pytest.mark.parametrize(
    ("parsed_kw", "profile_kw", "pattern", "on", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule(parsed_kw, profile_kw, pattern, on, fragment):
    decision = getattr(decide(question(**parsed_kw), [profile(**profile_kw)]), pattern)
    assert decision.on is on
    assert fragment in decision.reason


def test_every_pattern_has_a_reason():
    column = decide(question(), [profile()])
    assert [name for name, _ in column.items()] == list(PATTERN_NAMES)
    assert all(d.reason for _, d in column.items())


def test_single_pass_runs_keyword_and_toc_only():
    column = decide(question(intent="listing", references=("Table 3",)), [profile(toc=10)], "single_pass")
    on = {name for name, d in column.items() if d.on}
    assert on == {"keyword_retrieval", "toc_retrieval"}
    assert "answers once" in column.iterative_feedback.reason
    assert "not part of this strategy" in column.two_hop_references.reason


@pytest.mark.parametrize("strategy", ["single_pass", "dispatched", "dynamic", "plan_execute"])
def test_a_strategy_runs_only_the_patterns_its_registry_entry_declares(strategy):
    """Every rule fires for this question (outline, reference, listing, open intent, table value): the
    column still switches on only what the strategy runs."""
    parsed = question(
        intent="vague", references=("Table 3",), expected_count=3, layout_hint="table", asks_for_value=True
    )
    column = decide(parsed, [profile(toc=10, tables=True)], strategy)
    spec = STRATEGIES[strategy]
    for name, decision in column.items():
        if name == "iterative_feedback":
            continue
        assert decision.on == (name in spec.patterns), (name, decision)
        if name not in spec.patterns:
            assert spec.summary in decision.reason


@pytest.mark.parametrize(
    ("strategy", "on", "fragment"),
    [
        ("single_pass", False, "answers once"),
        ("dispatched", True, "feedback signals"),
        ("dynamic", True, "re-plans sub-queries"),
        ("plan_execute", False, "plan's steps once"),
    ],
)
def test_the_feedback_row_says_how_the_strategy_loops(strategy, on, fragment):
    column = decide(question(), [profile()], strategy, max_iterations=3)
    assert column.iterative_feedback.on is on and fragment in column.iterative_feedback.reason


def test_several_documents_count_outlines():
    column = decide(question(), [profile(toc=5), profile(toc=0)])
    assert column.toc_retrieval.on and "1 of 2 documents" in column.toc_retrieval.reason


def test_worked_example_activations():
    """The design's worked example, with the parse the design gives for it."""
    parsed = question(
        text="What regularization techniques does the Transformer paper use, and where do they show the impact on BLEU?",
        intent="listing",
        keywords=("regularization", "dropout", "label smoothing", "BLEU"),
        complexity="complex",
        section_hint="5.4",
        layout_hint="table",
    )
    column = decide(parsed, [profile(toc=22, tables=True, pages=15)])
    on = {name for name, d in column.items() if d.on}
    assert on == {
        "toc_retrieval",
        "keyword_retrieval",
        "two_hop_references",
        "listing_aggregation",
        "iterative_feedback",
    }


@pytest.mark.parametrize("strategy", ["dispatched", "single_pass"])
def test_the_keyword_reason_names_the_engine_that_runs(strategy):
    assert "(Whoosh BM25F)" in decide(question(), [profile()], strategy).keyword_retrieval.reason
    engine = "PostgreSQL full-text search, ts_rank_cd"
    assert f"({engine})" in decide(question(), [profile()], strategy, engine).keyword_retrieval.reason


@pytest.mark.parametrize("intent", ["vague", "single_fact"])
def test_the_dense_reason_names_the_engine_that_ranks(intent):
    assert decide(question(intent=intent), [profile()]).dense_retrieval.reason.endswith("; dense retrieval (LSA)")
    column = decide(question(intent=intent), [profile()], dense_engine="embeddings: m-1")
    assert column.dense_retrieval.reason.endswith("; dense retrieval (embeddings: m-1)")


def test_a_zero_iteration_budget_switches_the_loop_off_with_its_reason():
    column = decide(question(), [profile()], max_iterations=0)
    assert not column.iterative_feedback.on and "iteration budget is 0" in column.iterative_feedback.reason
    assert "at most 2" in decide(question(), [profile()], max_iterations=2).iterative_feedback.reason


def test_the_keyword_reason_names_the_side_quota():
    from engine.contracts import ComparisonSide

    sides = (ComparisonSide(label="2018", query="q", doc_id="a"), ComparisonSide(label="2022", query="q", doc_id="b"))
    column = decide(question(sides=sides), [profile(), profile()], side_quota=5)
    assert "2 sides" in column.keyword_retrieval.reason and "quota of 5 chunks" in column.keyword_retrieval.reason
    assert "in its own document" in column.keyword_retrieval.reason
