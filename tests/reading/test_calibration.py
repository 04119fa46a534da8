"""Calibrated confidence: features of made-up answers, the fit on data whose truth is known, the split,
the claim line, and what the calibration does to an answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.contracts import AnswerWithEvidence, CaveatKind, Chunk, Citation, PageScore, caveat
from engine.reading.calibration import (
    DERIVED,
    AnswerFeatures,
    CalibrationModel,
    calibrate_answer,
    calibrate_result,
    calibrated,
    caveat_flags,
    feature_vector,
    features_of,
    load_model,
)
from engine.reading.calibration_fit import (
    MODEL_FEATURES,
    choose_claim_line,
    document_split,
    fit_logistic,
    fit_model,
    predictions,
)
from tests.eval.factories import DOC, run_result

# --------------------------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------------------------


def _chunk(page: int, text: str, kind: str = "text") -> Chunk:
    return Chunk(chunk_id=f"{DOC[:8]}-{page}-0", doc_id=DOC, page=page, index=0, text=text, bboxes=(), kind=kind)  # type: ignore[arg-type]


def _answered(text: str, quote: str, caveats: tuple = (), **update: object):
    chunk = _chunk(7, quote, kind="table")
    base = run_result(pages=(7,), text=text)
    answer = AnswerWithEvidence(
        text=text, answer_found=True, complete_answer_found=True, confidence=0.8, caveats=caveats,
        citations=(Citation(chunk_id=chunk.chunk_id, doc_id=DOC, page=7, quote=quote),),
    )  # fmt: skip
    scores = (
        PageScore(doc_id=DOC, page=7, retriever="fused", score=0.03),
        PageScore(doc_id=DOC, page=9, retriever="fused", score=0.06),
    )
    return base.model_copy(update={"answer": answer, "evidence_chunks": (chunk,), "page_scores": scores, **update})


def test_features_of_a_stated_value_answer() -> None:
    result = _answered("Widget sales were $412 million in 2031.", "Widget sales 412 390")
    result = result.model_copy(
        update={"parsed_question": result.parsed_question.model_copy(update={"keywords": ("widget", "sales", "tax")})}
    )
    f = features_of(result)
    assert not f.declined and f.rule_complete and f.rule_confidence == 0.8
    assert f.states_number and f.table_cited and f.answer_citations == 1
    assert math.isclose(f.term_coverage, 2 / 3, abs_tol=1e-3)  # "tax" is in no cited passage
    assert math.isclose(f.page_score_share, 0.5) and not f.top_page_cited  # page 9 scored higher
    assert f.caveats == 0 and not any(caveat_flags(()).values())


def test_features_of_a_declined_answer_and_caveat_kinds() -> None:
    result = run_result(text="The evidence does not contain an answer.", answer_found=False)
    f = features_of(result)
    assert f.declined and not f.states_number and f.answer_citations == 0 and f.term_coverage == 0.0
    flags = caveat_flags(
        (caveat(CaveatKind.VALUE_NO_PERIOD, "Gadgets"), caveat(CaveatKind.PENDING_REFERENCE, "Table 9"))
    )
    assert flags["caveat_period"] and flags["caveat_pending"] and not flags["caveat_count"]


def test_feature_vector_reads_bools_as_numbers() -> None:
    f = features_of(run_result(text="nothing", answer_found=False))
    assert feature_vector(f, ("declined", "rule_confidence", "states_number")) == [1.0, 0.0, 0.0]


# --------------------------------------------------------------------------------------------
# Fitting
# --------------------------------------------------------------------------------------------


def test_fit_logistic_recovers_known_weights() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=(4000, 3))
    truth, bias = np.array([2.0, -1.0, 0.0]), 0.5
    y = (rng.random(4000) < 1 / (1 + np.exp(-(x @ truth + bias)))).astype(float)
    weights, intercept = fit_logistic(x, y, l2=0.01)
    assert np.allclose(weights, truth, atol=0.2) and abs(intercept - bias) < 0.15
    again = fit_logistic(x, y, l2=0.01)
    assert np.array_equal(again[0], weights)  # deterministic
    shrunk, _ = fit_logistic(x, y, l2=500.0)
    assert abs(shrunk[0]) < abs(weights[0])  # the penalty pulls weights toward zero


def _records(n: int, seed: int = 3) -> list[dict]:
    """Made-up answers whose truth depends on term coverage and the rule check only."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        cover = float(rng.random())
        complete = bool(rng.random() < 0.5)
        p = 1 / (1 + math.exp(-(6 * cover - 3 + (1.5 if complete else -1.5))))
        f = features_of(run_result(text="It is 4.", answer_found=True)).model_copy(
            update={"term_coverage": cover, "rule_complete": complete, "rule_confidence": 0.5}
        )
        out.append({"set": "made-up", "id": f"q{i}", "docs": [f"doc{i % 10}.pdf"], "right": bool(rng.random() < p),
                    "features": f.model_dump()})  # fmt: skip
    return out


def test_fit_model_is_calibrated_on_data_it_never_saw() -> None:
    model = fit_model(_records(1500), names=("term_coverage", "rule_complete", "caveats", "declined"), l2=1.0)
    confidence, right, claimed = predictions(model, _records(1500, seed=11))
    for low in (0.0, 0.2, 0.4, 0.6, 0.8):
        inside = (confidence >= low) & (confidence < low + 0.2)
        if inside.sum() >= 50:
            assert abs(confidence[inside].mean() - right[inside].mean()) < 0.1
    weights = dict(zip(model.features, model.weights, strict=True))
    assert weights["term_coverage"] > 1.0 and weights["rule_complete"] > 0.5
    assert abs(weights["caveats"]) < 1e-6  # constant in the data: no weight
    assert claimed.any() and right[claimed].mean() >= 0.85


def test_claim_line_is_the_lowest_confidence_with_ninety_percent_right() -> None:
    confidence = np.array([0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5])
    right = np.array([1, 1, 1, 1, 1, 1, 0, 0], dtype=float)
    claimable = np.ones(8, dtype=bool)
    assert choose_claim_line(confidence, right, claimable) == 0.7
    assert choose_claim_line(confidence, np.zeros(8), claimable) == 1.0  # no line: claim nothing
    only_top = claimable.copy()
    only_top[:4] = False
    assert choose_claim_line(confidence, right, only_top) == 1.0  # too few claimable answers above any line


def test_document_split_keeps_a_document_on_one_side() -> None:
    records = [{"set": "s", "id": f"q{i}", "docs": [f"d{i % 4}.pdf"]} for i in range(12)]
    split = document_split(records)
    by_doc: dict[str, set[str]] = {}
    for r in records:
        by_doc.setdefault(r["docs"][0], set()).add(split[("s", r["id"])])
    assert all(len(sides) == 1 for sides in by_doc.values())
    assert by_doc["d0.pdf"] == {"train"} and by_doc["d1.pdf"] == {"report"} and by_doc["d2.pdf"] == {"train"}


def test_fit_refuses_one_sided_data() -> None:
    records = _records(20)
    for r in records:
        r["right"] = True
    with pytest.raises(ValueError):
        fit_model(records)


# --------------------------------------------------------------------------------------------
# Applying it
# --------------------------------------------------------------------------------------------


def _model(intercept: float, line: float) -> CalibrationModel:
    return CalibrationModel(features=("term_coverage",), weights=(0.0,), intercept=intercept, means=(0.0,),
                            scales=(1.0,), claim_threshold=line)  # fmt: skip


def test_under_the_line_an_answer_is_kept_but_not_verified() -> None:
    result = _answered("Widget sales were $412 million.", "Widget sales 412")
    answer = calibrate_answer(result.answer, features_of(result), _model(intercept=0.0, line=0.8))
    assert answer.confidence == 0.5 and not answer.complete_answer_found
    assert answer.text == result.answer.text  # the best-supported reading stays
    assert answer.caveats[-1] == caveat(CaveatKind.UNCLAIMED, figures=(0.5, 0.8))
    again = calibrate_answer(answer, features_of(result), _model(intercept=0.0, line=0.8))
    assert sum(c.kind == CaveatKind.UNCLAIMED for c in again.caveats) == 1  # one such caveat, never two


def test_over_the_line_a_checked_answer_stays_complete() -> None:
    result = _answered("Widget sales were $412 million.", "Widget sales 412")
    calibrated = calibrate_result(result, _model(intercept=3.0, line=0.8))
    assert calibrated.answer.complete_answer_found and calibrated.answer.confidence == pytest.approx(0.953, abs=1e-3)
    unchecked = result.model_copy(update={"answer": result.answer.model_copy(update={"complete_answer_found": False})})
    assert not calibrate_result(unchecked, _model(intercept=3.0, line=0.8)).answer.complete_answer_found


def test_the_shipped_weights_load_and_name_known_features() -> None:
    model = load_model()
    if model is None:
        pytest.skip("no weights shipped")
    assert set(model.features) <= set(AnswerFeatures.model_fields) | set(DERIVED)
    assert 0.0 < model.claim_threshold <= 1.0
    assert len(model.weights) == len(model.features) == len(model.means) == len(model.scales)
    assert set(model.features) <= set(MODEL_FEATURES)


def test_the_not_established_lead_is_the_one_the_run_writes() -> None:
    from engine.reading.calibration import NOT_ESTABLISHED_LEAD
    from engine.run.steps import NOT_ESTABLISHED

    assert NOT_ESTABLISHED_LEAD == NOT_ESTABLISHED


def test_the_api_gives_the_answer_its_calibrated_confidence(library_dir) -> None:
    from engine import EngineConfig, answer
    from engine.library import open_library
    from engine.samples import SAMPLE_QUESTIONS, build_sample_pdf

    model = load_model()
    if model is None:
        pytest.skip("no weights shipped")
    library = open_library(EngineConfig())
    doc_id = library.ingest(build_sample_pdf(), "loupe-sample.pdf").doc_id
    raw = answer(SAMPLE_QUESTIONS[0], [doc_id], library=library, calibrate=False)
    final = answer(SAMPLE_QUESTIONS[0], [doc_id], library=library)
    assert final.answer.confidence == calibrate_result(raw).answer.confidence == calibrated(features_of(raw))
    assert final.answer.complete_answer_found == (
        raw.answer.complete_answer_found and final.answer.confidence >= model.claim_threshold
    )


def overall_of(records: list[dict]) -> float:
    judged_right = [bool(r["right"]) for r in records if r["right"] is not None]
    return sum(judged_right) / len(judged_right)


def test_declines_and_closest_passages_get_their_kinds_share_right() -> None:
    records = _records(300)
    declined = features_of(run_result(text="nothing", answer_found=False))
    closest = features_of(run_result(text="The evidence does not establish an answer.\nClosest passages:\nx"))
    records += [{"set": "made-up", "id": f"d{i}", "docs": ["d.pdf"], "right": i < 2, "features": declined.model_dump()}
                for i in range(8)]  # fmt: skip
    records += [{"set": "made-up", "id": f"c{i}", "docs": ["c.pdf"], "right": False, "features": closest.model_dump()}
                for i in range(8)]  # fmt: skip
    model = fit_model(records, names=("term_coverage", "rule_complete"), l2=1.0)
    overall = sum(bool(r["right"]) for r in records if r["right"] is not None) / sum(
        r["right"] is not None for r in records
    )  # each kind's share right is drawn towards the split's by two answers' weight
    assert model.declined_rate == pytest.approx((2 + 2 * overall) / 10, abs=1e-4)
    assert model.closest_rate == pytest.approx(2 * overall / 10, abs=1e-4)
    assert calibrated(declined, model) == pytest.approx(model.declined_rate, abs=1e-3)
    assert calibrated(closest, model) == pytest.approx(model.closest_rate, abs=1e-3)
    unseen = fit_model(_records(300), names=("term_coverage", "rule_complete"), l2=1.0)
    assert unseen.declined_rate == pytest.approx(overall_of(_records(300)), abs=1e-4), "a kind never seen: the split's"
    stated = declined.model_copy(update={"declined": False, "term_coverage": 1.0, "rule_complete": True})
    assert calibrated(stated, model) > 0.8  # a stated answer is read by the regression, not by its kind
