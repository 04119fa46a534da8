"""The runner end to end on the bundled set with the offline backend (small: two strategies)."""

from __future__ import annotations

from pathlib import Path

from engine.config import EngineConfig
from engine.eval import load_eval_set, run_eval


def test_bundled_set_offline(config: EngineConfig, library_dir: Path) -> None:
    eval_set = load_eval_set("sample", limit=4)
    events = []
    report = run_eval(eval_set, ["baseline_top5", "dispatched"], config=config, progress=events.append)
    assert not report.ingest_failures
    assert len(report.rows) == 8 and not [r.error for r in report.rows if r.error]
    assert any(library_dir.iterdir())  # ingested into the test's library
    for strategy in ("baseline_top5", "dispatched"):
        s = report.summary(strategy)
        assert s is not None and s.n == 4 and s.n_recall == 4
        assert s.recall is not None and 0.0 <= s.recall <= 1.0
        assert s.llm_calls and s.llm_calls >= 1
        assert s.latency_p95_ms is not None
    # the sample is written for these questions: the loop finds most gold pages offline
    assert report.summary("dispatched").recall >= 0.5
    assert events[-1].done == events[-1].total == 8
