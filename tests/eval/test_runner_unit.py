"""Runner, report and CLI with a fake engine: ordering, failure rows, baseline_top5, JSON output."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from engine.config import EngineConfig
from engine.errors import LoupeError
from engine.eval import command as cli
from engine.eval import runner
from engine.eval.dataset import parse_eval_lines
from engine.eval.report import format_report, write_report
from tests.eval.factories import run_result

ROWS = [
    {
        "id": "q1",
        "doc": "a.pdf",
        "question": "What is the rate?",
        "answer": "27.46%",
        "evidence_pages": [3, 5],
        "type": "cross_page",
    },
    {"id": "q2", "doc": "a.pdf", "question": "boom", "answer": "7", "evidence_pages": [2], "type": "single_page"},
    {
        "id": "q3",
        "doc": "missing.pdf",
        "question": "Where?",
        "answer": "x",
        "evidence_pages": [1],
        "type": "single_page",
    },
]


class FakeLibrary:
    def __init__(self) -> None:
        self.ingested: list[str] = []

    def ingest(self, data: bytes, name: str) -> SimpleNamespace:
        self.ingested.append(name)
        return SimpleNamespace(doc_id="d" * 64)


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    calls: list[dict] = []

    def answer(question, doc_ids, **kwargs):
        calls.append({"question": question, "strategy": kwargs["strategy"], "top_k": kwargs["top_k"]})
        if question == "boom":
            raise LoupeError("the backend failed")
        return run_result(pages=(3,), text="It is 27.46 percent.", strategy=kwargs["strategy"])

    monkeypatch.setattr(runner, "engine_answer", lambda: (answer, lambda config: None))
    return calls


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.7 fake")
    return tmp_path


def test_run_eval_rows_failures_and_baseline(fake_engine: list[dict], corpus: Path) -> None:
    library = FakeLibrary()
    events = []
    eval_set = parse_eval_lines("\n".join(json.dumps(r) for r in ROWS))
    report = runner.run_eval(
        eval_set, ["baseline_top5", "dispatched"], corpus=corpus, library=library, progress=events.append
    )
    assert library.ingested == ["a.pdf"]  # once, although two questions name it
    assert len(report.rows) == 6
    assert [(c["strategy"], c["top_k"]) for c in fake_engine[:2]] == [("single_pass", 5), ("dispatched", None)]
    q1 = [r for r in report.rows if r.question_id == "q1"]
    assert all(r.recall == 0.5 and r.answer_match for r in q1)
    failed = {(r.question_id, r.error is not None) for r in report.rows}
    assert ("q2", True) in failed and ("q3", True) in failed
    assert report.ingest_failures and "missing.pdf" in report.ingest_failures[0]
    assert report.summary("baseline_top5").n == 3 and report.summary("baseline_top5").errors == 2
    run_events = [e for e in events if e.stage == "run"]
    assert run_events[-1].done == run_events[-1].total == 6


def test_unknown_strategy_and_backend() -> None:
    with pytest.raises(LoupeError, match="unknown strategy 'fast'"):
        runner.parse_strategies("single_pass,fast")
    with pytest.raises(LoupeError, match="no strategy"):
        runner.parse_strategies(" , ")
    assert runner.with_backend(EngineConfig(), "openai").backend.kind == "openai"


def test_report_text_and_file(fake_engine: list[dict], corpus: Path, tmp_path: Path) -> None:
    eval_set = parse_eval_lines("\n".join(json.dumps(r) for r in ROWS[:2]), name="mini")
    report = runner.run_eval(eval_set, ["single_pass"], corpus=corpus, library=FakeLibrary())
    text = format_report(report)
    assert "== per strategy" in text and "type:cross_page" in text and "1 failed run" in text
    path = write_report(report, tmp_path / "out" / "r.json")
    assert json.loads(path.read_text())["summaries"][0]["strategy"] == "single_pass"


def _args(tmp_path: Path, set_path: Path, **extra: object) -> argparse.Namespace:
    values = dict(set=str(set_path), corpus=str(tmp_path), strategies="single_pass,auto", backend="offline",
                  limit=None, report=str(tmp_path / "report.json"), json=True)  # fmt: skip
    return argparse.Namespace(**{**values, **extra})


def test_cli_json_last_line(fake_engine: list[dict], corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    set_path = corpus / "set.jsonl"
    set_path.write_text("\n".join(json.dumps(r) for r in ROWS[:2]))
    monkeypatch.setattr(cli, "run_eval", _with_fake_library(runner.run_eval))
    cli.run_eval_command(_args(corpus, set_path, limit=1), EngineConfig())
    out = capsys.readouterr()
    last = json.loads(out.out.strip().splitlines()[-1])
    assert last["questions"] == 1 and last["strategies"] == ["single_pass", "auto"]
    assert (corpus / "report.json").is_file() and "[2/2]" in out.err


def _with_fake_library(fn):
    def wrapped(*args, **kwargs):
        kwargs["library"] = FakeLibrary()
        return fn(*args, **kwargs)

    return wrapped


def test_cli_main_bad_input_exits_2(tmp_path: Path, capsys) -> None:
    assert cli.main([str(tmp_path / "nope.jsonl")]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n')
    assert cli.main([str(bad), "--strategies", "nope"]) == 2
    assert "unknown strategy" in capsys.readouterr().err


def test_unexpected_engine_error_is_a_failure_row(monkeypatch: pytest.MonkeyPatch, corpus: Path) -> None:
    def answer(question, doc_ids, **kwargs):
        raise KeyError("chunk-id")

    monkeypatch.setattr(runner, "engine_answer", lambda: (answer, lambda config: None))
    eval_set = parse_eval_lines(json.dumps(ROWS[0]))
    report = runner.run_eval(eval_set, ["auto"], corpus=corpus, library=FakeLibrary())
    assert report.rows[0].error.startswith("unexpected KeyError") and report.rows[0].recall == 0.0


def test_unexpected_ingest_error_is_recorded(fake_engine: list[dict], corpus: Path) -> None:
    class Broken(FakeLibrary):
        def ingest(self, data: bytes, name: str) -> SimpleNamespace:
            raise RuntimeError("index build failed")

    report = runner.run_eval(parse_eval_lines(json.dumps(ROWS[0])), ["auto"], corpus=corpus, library=Broken())
    assert "RuntimeError" in report.ingest_failures[0] and report.rows[0].error and not fake_engine
