"""Table-driven tests of the offline question parser on realistic questions of every intent."""

from __future__ import annotations

import pytest

from engine.contracts import ParsedQuestion, TaskRequest
from engine.llm.offline import OfflineBackend
from engine.reading.question import extract_keywords, find_sides, parse_question

# (question, intent, expected features)
# features: kw = keywords that must be present (case-insensitive), sides = side labels, section, layout,
# count, value, refs, complexity
CASES: list[tuple[str, str, dict]] = [
    # single facts
    ("What warmup length did the optimizer schedule use?", "single_fact", {"kw": ["warmup length"]}),
    ("How many layers does the encoder have?", "single_fact", {"value": True, "kw": ["encoder", "layers"]}),
    ("What accuracy does the baseline tagger reach?", "single_fact", {"value": True}),
    ("When was the company incorporated?", "single_fact", {"value": True, "kw": ["company", "incorporated"]}),
    (
        "What mean turbidity does Table 3 report for Station B?",
        "single_fact",
        {"refs": ["Table 3"], "layout": "table", "value": True, "kw": ["Station B"], "complexity": "moderate"},
    ),
    (
        "What is the FY2036 capital expenditure amount (in EUR millions) for Acme? Use the cash flow statement.",
        "single_fact",
        {"layout": "table", "value": True, "kw": ["FY2036", "capital expenditure", "Acme"]},
    ),
    ("What is shown in Figure 2?", "single_fact", {"refs": ["Figure 2"], "layout": "figure"}),
    ("Who is the chief executive officer of Northwind Traders?", "single_fact", {"kw": ["Northwind Traders"]}),
    ("What dropout rate did the base model use?", "single_fact", {"value": True, "kw": ["dropout rate"]}),
    # comparisons
    (
        "Were Copper Kettle and Nightjar founded in the same town?",
        "comparison",
        {"sides": ["Copper Kettle", "Nightjar"]},
    ),
    (
        "Which band formed earlier, Arlo Finch and the Paper Lanterns or Hotel XII?",
        "comparison",
        {"sides": ["Arlo Finch and the Paper Lanterns", "Hotel XII"]},
    ),
    (
        "Is the Quercus or the Ginkgo the genus with more living species?",
        "comparison",
        {"sides": ["Quercus", "Ginkgo"]},
    ),
    ("Are both Marta Olsen and Ravi Kamath famous chefs?", "comparison", {"sides": ["Marta Olsen", "Ravi Kamath"]}),
    ("BERT vs GPT-2 on the GLUE benchmark", "comparison", {"sides": ["BERT", "GPT-2"]}),
    ("What is the difference between precision and recall?", "comparison", {"sides": ["precision", "recall"]}),
    ("Compare the Heron survey and the Egret survey turbidity results", "comparison", {"sides": ["Heron", "Egret"]}),
    ("How does the encoder differ from the decoder?", "comparison", {"sides": ["encoder", "decoder"]}),
    # listings
    (
        "What regularization techniques does the Transformer paper use?",
        "listing",
        {"kw": ["regularization techniques"]},
    ),
    (
        "What kinds of filtering are applied to the turbidity readings?",
        "listing",
        {"kw": ["filtering", "turbidity readings"]},
    ),
    ("What are the three types of regularization used?", "listing", {"count": 3, "kw": ["regularization"]}),
    ("List all the datasets used for evaluation.", "listing", {"kw": ["datasets", "evaluation"]}),
    ("Which baselines were the authors' methods measured against?", "listing", {"kw": ["baselines"]}),
    ("Which risk factors are described for the supply chain?", "listing", {"kw": ["supply chain"]}),
    ("What were the components of ferry operating costs in FY2031?", "listing", {"kw": ["components"]}),
    ("What are the main hazards listed for 2031?", "listing", {}),
    # a figure something attains: the verb names no term
    ("What recall does the Kestrel tagger get on the harbour set?", "single_fact", {"value": True, "kw": ["recall"]}),
    # plurals that name amounts of a period are values, not lists
    ("What were the repurchases of common stock in fiscal 2031?", "single_fact", {"value": True}),
    ("What were the capital expenditures of the ferry line in 2031?", "single_fact", {"value": True}),
    # section retrieval
    ("What does Section 5.4 say about dropout?", "section_retrieval", {"section": "5.4", "refs": ["Section 5.4"]}),
    ("Summarize Item 7 of the 10-K.", "section_retrieval", {"section": "Item 7"}),
    ("What is in Appendix B?", "section_retrieval", {"section": "Appendix B"}),
    ("What risks are described in the Risk Factors section?", "section_retrieval", {"section": "Risk Factors"}),
    # multi-hop
    ("Who directed the film that won the Palme d'Or in 1994?", "multi_hop", {"complexity": "complex"}),
    ("What is the population of the town where the ferry line was founded?", "multi_hop", {}),
    # open scoped
    ("How does the attention mechanism work?", "open_scoped", {"kw": ["attention mechanism"]}),
    ("Why did bookings shrink in 2017?", "open_scoped", {"kw": ["2017"]}),
    ("Explain the training schedule of the model", "open_scoped", {"kw": ["training schedule"]}),
    ("What factors moved gross margin in FY2036 for Acme?", "open_scoped", {"kw": ["gross margin", "FY2036"]}),
    # corpus-wide
    ("What are the main themes of the report overall?", "open_corpus_wide", {"complexity": "complex"}),
    ("Summarize the document", "open_corpus_wide", {}),
    ("What are the key findings across the paper?", "open_corpus_wide", {}),
    # vague
    ("Tell me about this", "vague", {}),
    ("What is this document about?", "vague", {}),
    ("anything interesting?", "vague", {}),
]


def _has(terms, wanted: str) -> bool:
    low = [t.lower() for t in terms]
    return any(wanted.lower() == t or wanted.lower() in t for t in low)


@pytest.mark.parametrize(("question", "intent", "features"), CASES, ids=[c[0][:40] for c in CASES])
def test_offline_parser(question: str, intent: str, features: dict) -> None:
    parsed = parse_question(question)
    assert parsed.intent == intent
    assert parsed.original_question == question
    for term in features.get("kw", []):
        assert _has(parsed.keywords, term), (term, parsed.keywords)
    if "sides" in features:
        assert [s.label for s in parsed.sides] == features["sides"]
        for side in parsed.sides:
            assert side.label in side.query and side.keywords[0] == side.label
    if "section" in features:
        assert parsed.retrieval.section_hint == features["section"]
    assert parsed.retrieval.layout_hint == features.get("layout", parsed.retrieval.layout_hint)
    if "layout" not in features and intent in ("comparison", "vague"):
        assert parsed.retrieval.layout_hint is None
    if "count" in features:
        assert parsed.expected_count == features["count"]
    if "value" in features:
        assert parsed.asks_for_value is features["value"]
    if "refs" in features:
        assert list(parsed.references) == features["refs"]
        assert set(features["refs"]) <= set(parsed.retrieval.anchor_keywords)
    if "complexity" in features:
        assert parsed.complexity == features["complexity"]
    assert len(parsed.keywords) <= 10
    assert parsed.retrieval.main_query


def test_every_intent_is_covered_by_the_table() -> None:
    assert {c[1] for c in CASES} == {
        "single_fact", "comparison", "multi_hop", "listing", "section_retrieval", "open_scoped",
        "open_corpus_wide", "vague",
    }  # fmt: skip
    assert len(CASES) >= 30


def test_keywords_drop_stop_words_and_keep_multiword_terms() -> None:
    keywords = extract_keywords('How is "multi-head attention" related to Label Smoothing in the base model?')
    assert keywords[0] == "multi-head attention"
    assert "Label Smoothing" in keywords
    assert not {"how", "is", "the", "in", "to"} & {k.lower() for k in keywords}


def test_non_comparison_or_yields_no_sides() -> None:
    assert find_sides("Is the company a capital-intensive business or not?") == []
    assert parse_question("Is Acme a labour-intensive business judged on FY2036 data?").intent == "single_fact"


def test_worked_example_question_is_a_complex_listing_with_a_table_hint() -> None:
    parsed = parse_question(
        "What regularization techniques does the Transformer paper use, and where do they show the impact on BLEU?"
    )
    assert parsed.intent == "listing" and parsed.complexity == "complex"
    assert parsed.retrieval.layout_hint == "table" and not parsed.asks_for_value
    assert "Transformer" in parsed.retrieval.anchor_keywords


def test_parse_through_the_backend_counts_one_call() -> None:
    reply = OfflineBackend().run("parse_question", TaskRequest(question="What is in Appendix B?"), ParsedQuestion)
    assert reply.value.intent == "section_retrieval"
    assert reply.usage.calls == 1 and reply.usage.prompt_tokens > 0 and reply.fallback is None


def test_backend_rejects_a_mismatched_output_type() -> None:
    with pytest.raises(ValueError, match="produces ParsedQuestion"):
        OfflineBackend().run("parse_question", TaskRequest(question="x"), TaskRequest)  # type: ignore[arg-type]


def test_sides_of_a_compare_with_question_leave_the_aspects_out():
    from engine.reading.question_sides import find_sides

    assert find_sides("How does the Heron 2 compare with the Heron 3 in endurance and payload?") == [
        "Heron 2",
        "Heron 3",
    ]
    assert find_sides("How do the Heron 2 and the Heron 3 differ in endurance?") == ["Heron 2", "Heron 3"]
    assert find_sides("How does Model X compare to Model Z?") == ["Model X", "Model Z"]


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which quarter of the year has the heaviest spending?", False),  # "of the year" asks for no value
        ("In which year did the company open its first plant?", True),
        ("What were the net sales of the Domestic segment?", True),  # sales: an amount filings state
        ("What diluted EPS did the company report?", True),
        ("What does the earnings release say about the outlook?", False),  # a document's name, not a value
    ],
)
def test_value_cues(question: str, value: bool) -> None:
    assert parse_question(question).asks_for_value is value


def test_a_count_in_a_relative_clause_is_a_condition_not_the_number_of_answers() -> None:
    assert parse_question("Which are the benchmarks that report exactly three methods?").expected_count is None
    assert parse_question("Name the three steps that the pipeline runs.").expected_count == 3


def test_compared_sides_are_of_one_kind() -> None:
    from engine.reading.question_sides import find_sides

    assert find_sides("How does Acme's payout ratio in FY2036 compare to FY2035?") == ["FY2036", "FY2035"]
    assert find_sides("How does the Heron 2 compare with the Heron 3 in endurance?") == ["Heron 2", "Heron 3"]


def test_a_definition_is_how_to_compute_the_answer_not_a_part_of_it() -> None:
    parsed = parse_question(
        "What is the FY2036 inventory turnover for Acme? Inventory turnover is defined as: "
        "FY2036 cost of sales / (average inventory between FY2035 and FY2036)."
    )
    assert parsed.parts == ()


def test_the_same_preposition_before_two_named_things_makes_them_sides() -> None:
    from engine.reading.question_sides import find_sides, is_comparison

    question = "How long does a battery swap take on the Heron 2 and on the Heron 3?"
    assert find_sides(question) == ["Heron 2", "Heron 3"] and is_comparison(question, find_sides(question))
    assert find_sides("How many employees did Acme have in 2018 and in 2022?") == ["2018", "2022"]
    # unnamed things behind the same preposition are parts of one question, not sides
    assert find_sides("What is the effect of the merger on revenue and on margin?") == []
    parsed = parse_question(question)
    assert [s.label for s in parsed.sides] == ["Heron 2", "Heron 3"]
    assert parsed.parts == (), "the sides are not aspects of their own"


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("Compare the towing cost of the small and large tugs.", ["small tugs", "large tugs"]),
        ("How do the fees of the standard and premium berths compare?", ["standard berths", "premium berths"]),
        ("Compare the towing cost of the Harbour Tug and the River Tug.", ["Harbour Tug", "River Tug"]),
    ],
)
def test_two_modifiers_of_one_head_noun_are_the_sides_not_the_aspect(question: str, sides: list[str]) -> None:
    from engine.reading.question_sides import find_sides

    assert find_sides(question) == sides


def test_a_verb_of_attaining_a_figure_is_no_keyword() -> None:
    for question in ("What recall does the Kestrel tagger reach on the harbour set?",
                     "What recall does the Kestrel tagger get on the harbour set?"):  # fmt: skip
        words = {k.lower() for k in extract_keywords(question)}
        assert "recall" in words and not words & {"reach", "get"}, words
    assert not parse_question("Which berth did the ferry get moved to?").asks_for_value, (
        "a passive 'get' asks no figure"
    )
