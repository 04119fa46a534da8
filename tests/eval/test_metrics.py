"""Metrics: page recall/precision, answer normalisation, unanswerable questions, aggregation."""

from __future__ import annotations

import pytest

from engine.contracts import Citation
from engine.eval.dataset import EvalQuestion, GoldPage
from engine.eval.matching import answer_match, is_scorable, normalize_answer, single_match
from engine.eval.metrics import aggregate, failure_score, page_recall_precision, percentile, score_run
from tests.eval.factories import DOC, run_result


def _q(pages=(3, 5), answer=("27.46%",), type_="cross_page", qid="q1") -> EvalQuestion:
    return EvalQuestion(
        id=qid, docs=("a.pdf",), question="q?", answers=answer,
        gold_pages=tuple(GoldPage(doc="a.pdf", page=p) for p in pages), type=type_,
    )  # fmt: skip


IDS = {"a.pdf": DOC}


@pytest.mark.parametrize(
    ("gold", "answer", "expected"),
    [
        ("$1,264.00", "Capital expenditure was 1264 in FY2038.", True),
        ("$1264.00", "purchases of PP&E: $1,264 million", True),
        ("1264", "$1,264.00", True),
        ("27.46%", "about 27.46 percent of the population", True),
        ("27.46 percent", "27.46%", True),
        ("8.7", "8.70", True),
        ("$8.70", "$8.7 billion", True),
        ("1264", "1,283", False),  # 1.5 % off: outside the 1 % tolerance
        ("100", "101", True),  # 1 % off: inside
        ("3", "FY2013 revenue", False),  # digits inside a word are not a number
        ("Harbour XII", "The band HARBOUR  XII formed first.", True),
        ("no", "I do not know", False),  # whole words only
        ("2.5-3cm", "between 2.5-3 cm", True),
        ("['green', 'yellow']", "Yellow and green.", True),
        ("['green', 'yellow']", "Only green.", False),
        # a reference's label and a page marker locate, they answer nothing
        ("5", "4 figures on pages 3-10:\n- Figure 5: Improved generalization (p. 10)", False),
        ("15", "See Table 15 on p. 15.", False),
        ("42", "Table 6-2 lists 42 operations.", True),
        ("52 minutes", "Flight endurance, Heron 3: 52 min", True),  # a unit of measure in another spelling
        ("1.9 m", "a wingspan of 1.9 metres", True),
        ("52 minutes", "a range of 52 km", False),  # the number in another unit is another measure
        # a short gold sentence: right when the answer states each value it states (not its periods or days)
        ("Acme turned its stock over 4.1 times in FY2031.", "Acme stock turnover: 4.12", True),
        ("Acme's Adj. EBITDA was $1,204mn in FY 2031", "Adjusted EBITDA, 2031: 1,204 million", True),
        ("Acme's Adj. EBITDA was $1,204mn in FY 2031", "Adjusted EBITDA, 2030: 1,150 million", False),
        ("The tax rate went from 20% in FY2030 to 23% in FY2031.", "Tax rate: +3.0 points, from 20.1% to 22.9%", True),
        ("The tax rate went from 20% in FY2030 to 23% in FY2031.", "Tax rate: 22.9% in 2031", False),  # one of two
        ("The tax rate went from 20% in FY2030 to 23% in FY2031.", "Staff: 20 in 2030, 23 in 2031", False),  # another
        ("On March 3, 2031 Acme raised $2.5 billion.", "Acme raised $2,500 million", True),  # the day is no value
        # a ratio as a decimal is the same value as a percentage, either way round
        ("0.215", "Return on assets: 21.46% (computed from ...)", True),
        ("21.5%", "a ratio of 0.2146", True),
        ("0.215", "21.46 (points)", False),  # no percentage sign: another number
        ("0.215", "Return on assets: 2.15%", False),
        # a list's item is stated when one line of the answer holds all its words
        ("['Trail', 'Camping (tents and stoves)']", "1. Trail 2. Camping (our tents and stoves)", True),
        ("['Trail', 'Camping (tents and stoves)']", "1. Trail 2. Camping (our tents) 3. Stoves", False),
    ],
)
def test_single_match(gold: str, answer: str, expected: bool) -> None:
    assert single_match(gold, answer) is expected


def test_a_sentence_gold_is_scored_by_the_values_it_states() -> None:
    assert is_scorable("Acme sold its plant for $3.1 billion in a deal closed on May 2, 2031 after a long review.")
    assert not is_scorable("Acme's main risks, as the COVID-19 note and the 10-K say, are currency and supply")
    explanation = "Sales rose 3% on price, 2% on volume, 1% on mix and 4% on acquisitions in the year"
    assert single_match(explanation, "3% 2% 1% 4%") is None, "a table in words is not one value"
    assert single_match("Acme's parser is spaCy 2.0 with a rule layer", "version 2.0 of the release") is False
    gold, answer = (
        "No. For Acme there has been a slight decline in gross margins by 0.8%.",
        "No: -0.8 points (from 19.4%)",
    )
    assert single_match(gold, answer) is False, "a bare figure is not the gold sentence's"
    assert single_match(gold, answer, "Is Acme's gross margin improving in 2031?") is True, "its subject is asked"


def test_long_and_empty_golds_are_not_scored() -> None:
    long = "No, the company is managing its CAPEX and fixed assets efficiently as the ratios below show clearly"
    assert not is_scorable(long)
    assert single_match(long, long) is None
    assert single_match("[]", "anything") is None
    assert answer_match([long], "x") is None


def test_alternatives_any_match() -> None:
    assert answer_match(["Tarnweed", "Tarnweed genus"], "It is the Tarnweed.") is True
    assert answer_match(["yes", "Tarnweed"], "none of them") is False


def test_normalize_answer() -> None:
    assert normalize_answer("  $1,264.00 USD ") == "1264"
    assert normalize_answer("27.46 Percent") == "27.46%"
    assert normalize_answer("2.50") == "2.5"


def test_recall_precision_hand_computed() -> None:
    gold = [GoldPage(doc="a.pdf", page=p) for p in (3, 5, 9)]
    recall, precision = page_recall_precision(gold, [(DOC, 3), (DOC, 9), (DOC, 4), (DOC, 7)], IDS)
    assert recall == pytest.approx(2 / 3)
    assert precision == pytest.approx(2 / 4)


def test_recall_respects_the_document() -> None:
    gold = [GoldPage(doc="a.pdf", page=3)]
    assert page_recall_precision(gold, [("other", 3)], IDS) == (0.0, 0.0)
    assert page_recall_precision([GoldPage(doc=None, page=3)], [("other", 3)], IDS) == (1.0, 1.0)


def test_recall_without_gold_or_citations() -> None:
    assert page_recall_precision([], [(DOC, 1)], IDS) == (None, None)
    assert page_recall_precision([GoldPage(doc="a.pdf", page=1)], [], IDS) == (0.0, 0.0)


def test_score_run_answerable() -> None:
    score = score_run(_q(), "dispatched", run_result(pages=(3, 4), text="It is 27.46 percent."), IDS)
    assert score.recall == 0.5 and score.precision == 0.5
    assert score.retrieved_recall == 0.5 and score.retrieved_pages == 2
    assert score.answer_match is True and score.correct is True
    assert score.multi_page and not score.unanswerable
    assert score.tokens == 1000 and score.llm_calls == 2


def test_unanswerable_correct_when_run_declines() -> None:
    q = _q(pages=(), answer=("Not answerable",), type_="unanswerable")
    declined = score_run(q, "auto", run_result(answer_found=False, text="The documents do not say."), IDS)
    claimed = score_run(q, "auto", run_result(pages=(2,), text="It is 5%."), IDS)
    assert declined.unanswerable and declined.unanswerable_correct is True and declined.correct is True
    assert claimed.unanswerable_correct is False and claimed.recall is None and claimed.answer_match is None
    # "Not answerable" alone marks a question unanswerable even without the type
    assert _q(pages=(), answer=("Not answerable",), type_="single_page").unanswerable


def test_a_decline_that_quotes_the_gold_value_in_its_closest_passages_is_no_match() -> None:
    """An answer under the claim line that only offers its closest passages (support) states nothing, even
    when a passage holds the gold value; it counts as declined."""
    support = (Citation(chunk_id="c1", doc_id=DOC, page=3, quote="It is 27.46 percent.", role="support"),)
    stated = (support[0].model_copy(update={"role": "answer"}),)
    text = "The evidence does not establish an answer.\nClosest passages:\nIt is 27.46 percent."
    offered = score_run(_q(), "auto", run_result(pages=(3,), text=text, citations=support), IDS)
    answered = score_run(_q(), "auto", run_result(pages=(3,), text="It is 27.46 percent.", citations=stated), IDS)
    assert offered.declined and offered.answer_match is False
    assert not answered.declined and answered.answer_match is True
    summary = next(s for s in aggregate([offered, answered]) if s.slice == "all")
    assert summary.declined == 0.5


def test_percentile() -> None:
    assert percentile([], 50) is None
    assert percentile([10.0, 20.0, 30.0, 40.0], 50) == 25.0
    assert percentile(list(range(1, 101)), 95) == pytest.approx(95.05)


def test_aggregate_hand_computed() -> None:
    q1 = _q(pages=(3, 5), qid="q1")  # multi-page
    q2 = _q(pages=(7,), answer=("42",), type_="single_page", qid="q2")
    q3 = _q(pages=(), answer=("Not answerable",), type_="unanswerable", qid="q3")
    rows = [
        score_run(q1, "sp", run_result(pages=(3,), text="27.46%", latency_ms=100, tokens=(500, 500)), IDS),
        score_run(
            q2, "sp", run_result(pages=(7, 8), text="41", latency_ms=300, tokens=(1500, 500), exhausted=True), IDS
        ),
        score_run(q3, "sp", run_result(answer_found=False, latency_ms=200, tokens=(1000, 0)), IDS),
        failure_score(q2, "dp", "boom"),
    ]
    summaries = {(s.strategy, s.slice): s for s in aggregate(rows, price_per_1k=2.0)}
    everything = summaries[("sp", "all")]
    assert everything.n == 3 and everything.errors == 0
    assert everything.recall == pytest.approx((0.5 + 1.0) / 2)
    assert everything.precision == pytest.approx((1.0 + 0.5) / 2)
    assert everything.full_recall_rate == pytest.approx(0.5)
    assert everything.answer_match == pytest.approx(0.5)  # q1 matches, q2 does not
    assert everything.unanswerable_accuracy == 1.0
    assert everything.mean_cited_pages == pytest.approx(1.0)  # (1 + 2 + 0) / 3
    assert everything.exhaustion_rate == pytest.approx(1 / 3)
    assert everything.latency_p50_ms == 200.0
    assert everything.correct == 2
    # 1000 + 2000 + 1000 tokens at 2.0 per 1k = 8.0, over 2 correct answers
    assert everything.cost_per_correct == pytest.approx(4.0)
    assert everything.llm_calls_per_correct == pytest.approx(3.0)
    assert summaries[("sp", "multi_page")].n == 1
    assert summaries[("sp", "single_page")].recall == 1.0
    assert summaries[("sp", "type:unanswerable")].n == 1
    failed = summaries[("dp", "all")]
    assert failed.errors == 1 and failed.recall == 0.0 and failed.answer_match == 0.0 and failed.latency_p50_ms is None


def test_retrieved_recall_counts_every_retrieved_page() -> None:
    score = score_run(_q(pages=(3, 5)), "baseline_top5", run_result(pages=(3,), retrieved=(5, 8), text="x"), IDS)
    assert score.recall == 0.5 and score.retrieved_recall == 1.0 and score.retrieved_pages == 3
    summary = aggregate([score])[0]
    assert summary.retrieved_recall == 1.0


def test_side_coverage_counts_documents_with_a_gold_or_also_page_cited():
    from engine.eval.metrics import side_coverage

    q = EvalQuestion(
        id="x", docs=("a.pdf", "b.pdf"), question="q?",
        gold_pages=(GoldPage(doc="a.pdf", page=4), GoldPage(doc="b.pdf", page=6)),
        also_pages=(GoldPage(doc="a.pdf", page=39),),
    )  # fmt: skip
    ids = {"a.pdf": "A", "b.pdf": "B"}
    assert side_coverage(q, [("A", 39), ("B", 1)], ids) == 0.5
    assert side_coverage(q, [("A", 4), ("B", 6)], ids) == 1.0
    assert side_coverage(q.model_copy(update={"docs": ("a.pdf",)}), [("A", 4)], ids) is None


def test_reliability_bins_count_right_answers_by_confidence():
    from engine.eval.metrics import QuestionScore
    from engine.eval.reliability import format_reliability, reliability

    def row(confidence, recall, match, complete=True):
        return QuestionScore(question_id="q", type="t", strategy="auto", confidence=confidence, recall=recall,
                             answer_match=match, complete=complete)  # fmt: skip

    rows = [row(0.9, 1.0, True), row(0.85, 0.0, True), row(0.1, 1.0, None, complete=False), row(0.5, None, None)]
    bins = {(b.low, b.strategy): b for b in reliability(rows)}
    top = bins[(0.8, "auto")]
    assert (top.n, top.right, top.complete) == (2, 1, 2), "a gold page missed makes an answer wrong"
    # a row whose gold answer cannot be scored is left out, whatever page it cites: a page is not an answer
    assert bins[(0.0, "auto")].n == 0 and bins[(0.4, "auto")].n == 0, "unjudgeable rows are left out"
    assert "0.8-1.0" in format_reliability(list(bins.values()))
