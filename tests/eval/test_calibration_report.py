"""The eval's calibration figures: reliability bins with mean confidence, the selective-accuracy curve,
AUC among stated answers, and the feature records the fit reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.eval.dataset import parse_eval_lines
from engine.eval.metrics import QuestionScore, score_run
from engine.eval.reliability import (
    auc,
    bins_of,
    feature_rows,
    format_calibration,
    selective_curve,
    summarize_calibration,
)
from engine.eval.report import format_report
from engine.eval.runner import EvalReport
from engine.reading.calibration import features_of
from tests.eval.factories import DOC, run_result


def _row(qid: str, confidence: float, right: bool, declined: bool = False, complete: bool = False) -> QuestionScore:
    features = features_of(run_result(text="x", answer_found=not declined))
    return QuestionScore(
        question_id=qid, type="t", strategy="auto", confidence=confidence, answer_match=right, recall=1.0,
        complete=complete, features=features,
    )  # fmt: skip


def test_auc_counts_pairs_and_ties() -> None:
    assert auc([(0.9, True), (0.1, False)]) == 1.0
    assert auc([(0.1, True), (0.9, False)]) == 0.0
    assert auc([(0.5, True), (0.5, False)]) == 0.5
    assert auc([(0.9, True), (0.8, True)]) is None  # no wrong answer: nothing to rank


def test_bins_carry_their_mean_confidence_and_gap() -> None:
    bins = bins_of([(0.85, True), (0.95, True), (0.9, False), (0.1, False)])
    top = bins[-1]
    assert top.n == 3 and top.mean_confidence == pytest.approx(0.9) and top.share_right == pytest.approx(2 / 3)
    assert top.gap == pytest.approx(0.9 - 2 / 3)
    assert bins[1].n == 0 and bins[1].gap is None


def test_selective_curve_keeps_answers_over_each_floor() -> None:
    curve = selective_curve([(0.95, True), (0.7, True), (0.65, False), (0.2, False)], floors=(0.0, 0.6, 0.9))
    assert [(p.kept, p.coverage) for p in curve] == [(4, 1.0), (3, 0.75), (1, 0.25)]
    assert curve[1].share_right == pytest.approx(2 / 3, abs=1e-4) and curve[2].share_right == 1.0


def test_summary_ranks_only_stated_answers_and_counts_claims() -> None:
    rows = [
        _row("a", 0.9, True, complete=True),
        _row("b", 0.8, False, complete=True),
        _row("c", 0.3, False),
        _row("d", 0.95, False, declined=True),  # a decline is left out of the AUC
    ]
    (summary,) = summarize_calibration(rows)
    assert summary.judged == 4 and summary.stated == 3 and summary.auc == 1.0
    assert summary.claimed == 2 and summary.claimed_right == 0.5
    assert "AUC (stated answers, n=3) 1.000" in format_calibration([summary])


def test_answer_right_needs_a_scored_answer() -> None:
    assert _row("a", 0.5, True).answer_right is True
    unscored = QuestionScore(question_id="b", type="t", strategy="auto", answer_match=None, recall=1.0)
    assert unscored.answer_right is None and unscored.wrong is False  # a cited gold page alone is not "right"
    no_page = QuestionScore(question_id="c", type="t", strategy="auto", answer_match=True, recall=0.0)
    assert no_page.answer_right is False


def test_report_prints_the_curve_and_feature_rows_round_trip(tmp_path: Path) -> None:
    line = {"id": "q1", "doc": "a.pdf", "question": "How many widgets?", "answer": "4", "evidence_pages": [3]}
    question = parse_eval_lines(json.dumps(line)).questions[0]
    row = score_run(question, "auto", run_result(pages=(3,), text="There are 4 widgets."), {"a.pdf": DOC})
    report = EvalReport(
        set_name="made-up", set_path="x", created_at="now", backend="offline", strategies=("auto",),
        config_fingerprint="f", price_per_1k_tokens=0.0, questions=1, seconds=0.0, rows=(row,), summaries=(),
        calibration=summarize_calibration([row]),
    )  # fmt: skip
    text = format_report(report)
    assert "== selective accuracy" in text and "coverage" in text and "|gap|" in text
    (record,) = feature_rows(report.rows, "made-up", {"q1": ("a.pdf",)})
    assert record["right"] is True and record["docs"] == ["a.pdf"] and record["features"]["states_number"] is True
    assert EvalReport.model_validate_json(report.model_dump_json()).calibration[0].judged == 1


def test_the_evaluate_page_charts_draw_bins_and_curve() -> None:
    from ui.charts import reliability_chart, selective_chart

    rows = [_row("a", 0.9, True), _row("b", 0.85, False), _row("c", 0.3, False), _row("d", 0.1, True)]
    summaries = summarize_calibration(rows)
    bins = reliability_chart(summaries)
    assert [t.name for t in bins.data] == ["calibrated", "auto"]
    assert list(bins.data[1].x) == pytest.approx([0.1, 0.3, 0.875])  # non-empty bins only
    curve = selective_chart(summaries)
    assert curve.data[0].x[0] == 1.0 and curve.data[0].y[0] == 0.5  # every answer kept, half right


def test_calibrate_command_fits_dumped_features_and_writes_weights(tmp_path: Path, capsys) -> None:
    from engine.cli.main import main
    from engine.reading.calibration import CalibrationModel

    lines = []
    for i in range(40):  # made-up answers over 8 documents: right when the cited passages name the terms
        cover = (i % 10) / 9
        features = features_of(run_result(text="It is 4.")).model_copy(update={"term_coverage": cover})
        lines.append(json.dumps({"set": "made-up", "id": f"q{i}", "docs": [f"d{i % 8}.pdf"], "strategy": "auto",
                                 "right": cover > 0.5, "features": features.model_dump()}))  # fmt: skip
    dump = tmp_path / "made-up.jsonl"
    dump.write_text("\n".join(lines) + "\n")
    out = tmp_path / "weights.json"
    assert main(["calibrate", "--features", str(dump), "--l2", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "== train split" in printed and "== report split" in printed and "claim line" in printed
    model = CalibrationModel.model_validate_json(out.read_text())
    assert dict(zip(model.features, model.weights, strict=True))["term_coverage"] > 0
