"""``python -m engine calibrate``: refit the calibrated confidence in one command.

Without ``--features`` it runs the eval of each training set (auto strategy, offline backend), writes
each answer's features (``bench/out/calibration/<set>.jsonl``), fits the model on the training split
(``engine.reading.calibration_fit.document_split``) and prints its figures on both splits; ``--out``
writes the weights (``engine/reading/calibration_weights.json`` is the one the engine ships).
With ``--features FILE.jsonl ...`` it fits on dumps an earlier ``eval --dump-features`` wrote.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from engine.config import REPO_ROOT, EngineConfig
from engine.errors import LoupeError
from engine.eval.command import StderrProgress, write_feature_rows
from engine.eval.dataset import DEFAULT_CORPUS, load_eval_set
from engine.eval.reliability import auc, bins_of, feature_rows, format_reliability, selective_curve
from engine.eval.runner import run_eval, with_backend
from engine.reading.calibration import CalibrationModel, answer_kind
from engine.reading.calibration_fit import choose_l2, document_split, fit_model, judged, predictions

TRAINING_SETS: tuple[tuple[str, int | None], ...] = (
    # (question set of ../shared/eval, first N questions): the sets both splits are drawn from
    ("financebench.jsonl", None),
    ("mmlongbench.jsonl", None),
    ("hotpotqa40.jsonl", None),
    ("uda.jsonl", None),
)
"""crossdoc_dev is left out: none of its gold answers can be scored (free-form comparisons)."""
DUMP_DIR = REPO_ROOT / "bench" / "out" / "calibration"


def add_calibrate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--features", nargs="*", default=None, metavar="FILE.jsonl",
                        help="fit on these feature dumps (eval --dump-features) instead of running the sets")  # fmt: skip
    parser.add_argument("--sets", default=str(REPO_ROOT.parent / "shared" / "eval"),
                        help="folder of the question sets")  # fmt: skip
    parser.add_argument("--corpus", default=str(DEFAULT_CORPUS), help="folder the sets' documents are in")
    parser.add_argument("--l2", type=float, default=None,
                        help="L2 penalty on the standardised weights (default: chosen by cross-validation on the "
                        "training split)")  # fmt: skip
    parser.add_argument("--out", default=None, help="write the fitted weights here (JSON)")
    parser.add_argument("--json", action="store_true")


def run_training_sets(sets_dir: Path, corpus: Path, config: EngineConfig) -> list[dict]:
    """Run every training set (auto, offline) and return its feature records (also written to DUMP_DIR)."""
    records: list[dict] = []
    config = with_backend(config, "offline")
    for name, limit in TRAINING_SETS:
        eval_set = load_eval_set(str(sets_dir / name), limit=limit)
        report = run_eval(eval_set, ["auto"], config=config, corpus=corpus, progress=StderrProgress())
        rows = feature_rows(report.rows, eval_set.name, {q.id: q.docs for q in eval_set.questions})
        write_feature_rows(DUMP_DIR / f"{eval_set.name}.jsonl", rows)
        records += rows
    return records


def read_records(paths: Sequence[str]) -> list[dict]:
    records = []
    for path in paths:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise LoupeError(f"{path}: cannot read the features ({error})") from None
        records += [json.loads(line) for line in lines if line.strip()]
    return records


def split_figures(model: CalibrationModel, records: Sequence[Mapping]) -> dict[str, object]:
    """Reliability bins, AUC among stated answers, claims and the selective-accuracy curve of ``records``."""
    confidence, right, claimed = predictions(model, records)
    features = judged(records).features
    pairs = [(float(c), bool(r)) for c, r in zip(confidence, right, strict=True)]
    stated = [p for p, f in zip(pairs, features, strict=True) if answer_kind(f) == "stated"]
    bins = bins_of(pairs, "", [bool(c) for c in claimed])
    return {
        "judged": len(pairs),
        "right": round(float(right.mean()), 4) if len(right) else None,
        "auc_stated": auc(stated),
        "claimed": int(claimed.sum()),
        "claimed_share": round(float(claimed.mean()), 4) if len(claimed) else None,
        "claimed_right": round(float(right[claimed].mean()), 4) if claimed.any() else None,
        "max_gap": max((b.gap for b in bins if b.gap is not None), default=None),
        "bins": [
            {"low": b.low, "high": b.high, "n": b.n, "mean": b.mean_confidence, "right": b.share_right, "gap": b.gap}
            for b in bins
        ],
        "curve": [p.model_dump() for p in selective_curve(pairs)],
        "table": format_reliability(bins),
    }


def cmd_calibrate(args: argparse.Namespace, config: EngineConfig) -> None:
    if args.features:
        records = read_records(args.features)
    else:
        records = run_training_sets(Path(args.sets), Path(args.corpus), config)
    split = document_split(records)
    train = [r for r in records if split[(r["set"], r["id"])] == "train"]
    held = [r for r in records if split[(r["set"], r["id"])] == "report"]
    names = ", ".join(dict.fromkeys(r["set"] for r in records))
    l2 = args.l2 if args.l2 is not None else choose_l2(train)
    model = fit_model(train, l2=l2, trained_on=f"{names}: documents at even positions of each set's sorted list")
    figures = {"train": split_figures(model, train), "report": split_figures(model, held)}
    if args.out:
        Path(args.out).write_text(model.model_dump_json(indent=1) + "\n", encoding="utf-8")
    if args.json:
        sys.stdout.write(json.dumps({"model": model.model_dump(), "figures": figures}, default=str) + "\n")
        return
    lines = [
        f"fitted on {model.train_rows} training answers ({names}), L2 {model.l2}; "
        f"claim line {model.claim_threshold:.3f}"
    ]
    for name, fig in figures.items():
        lines += [
            "",
            f"== {name} split: {fig['judged']} judged, share right {fig['right']}, AUC (stated) {fig['auc_stated']}, "
            f"claimed {fig['claimed']} ({fig['claimed_share']}), right among claimed {fig['claimed_right']}, "
            f"max bin gap {_rounded(fig['max_gap'])}",
            str(fig["table"]),
        ]
    lines += ["", "weights (standardised features):"]
    lines += [
        f"  {w:+.3f}  {n}" for n, w in sorted(zip(model.features, model.weights, strict=True), key=lambda p: -abs(p[1]))
    ]
    lines += [f"weights written to {args.out}" if args.out else "weights not written (no --out)"]
    sys.stdout.write("\n".join(lines) + "\n")


def _rounded(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)
