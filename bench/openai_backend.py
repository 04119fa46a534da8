"""The openai backend against a real model on 127.0.0.1: time per question and who answered.

    python bench/openai_backend.py --base-url http://127.0.0.1:PORT/v1 [--model NAME] [--financebench 5]
        [--strategy auto] [--max-seconds S] [--report FILE.json]

Runs the sample's suggested questions and the first ``--financebench`` questions of
../shared/eval/financebench.jsonl (skipped when ../shared is absent) through ``engine.answer`` with
the openai backend, one after the other in this process (the server has one slot, as a new user's
llama.cpp server would). For every question it prints the wall-clock seconds, the LLM calls and
prompt tokens counted, and the answer steps: how many went to the model, how many of those the model
answered itself (no offline fallback) with at least one valid citation (a chunk that was in the
prompt's evidence and a quote found in it), and why the others fell back. The summary line gives
the median seconds per question and the share of answer steps the model answered with valid
citations. Start a server first, e.g. (see README.md, "OpenAI-compatible endpoints"):

    python -m llama_cpp.server --model SmolLM2-135M-Instruct.Q4_1.gguf --host 127.0.0.1 --port 8011 \\
        --logits_all False --flash_attn True
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.config import REPO_ROOT, BackendConfig, EngineConfig, LibraryConfig
from engine.contracts import AnswerWithEvidence, BackendReply, BudgetOverride, TaskRequest
from engine.contracts.backend import T
from engine.documents.text import normalize_space
from engine.llm import make_backend

SHARED = REPO_ROOT.parent / "shared"


@dataclass
class StepLog:
    """What happened to the answer steps of one question."""

    model_answers: int = 0
    model_answers_cited: int = 0
    fallbacks: list[str] = field(default_factory=list)


class RecordingBackend:
    """Delegates to the real backend and records, per answer step, whether the model answered with a
    citation that checks out against the evidence it was given."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = StepLog()

    def run(self, task, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        reply = self.inner.run(task, request, output_type)
        if task == "answer" and reply.fallback is None:
            self.log.model_answers += 1
            if _valid_citations(reply.value, request) > 0:  # type: ignore[arg-type]
                self.log.model_answers_cited += 1
        return reply

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


def _valid_citations(answer: AnswerWithEvidence, request: TaskRequest) -> int:
    texts = {e.chunk_id: normalize_space(e.text) for e in request.evidence}
    return sum(
        1
        for c in answer.citations
        if c.chunk_id in texts and normalize_space(c.quote) and normalize_space(c.quote) in texts[c.chunk_id]
    )


def questions(limit: int) -> list[tuple[str, bytes, str]]:
    """(file name, PDF bytes, question) for the sample and the first ``limit`` financebench questions."""
    from engine.samples import SAMPLE_FILE_NAME, SAMPLE_QUESTIONS, build_sample_pdf

    sample = build_sample_pdf()
    rows = [(SAMPLE_FILE_NAME, sample, q) for q in SAMPLE_QUESTIONS]
    path = SHARED / "eval" / "financebench.jsonl"
    if limit and path.is_file() and (SHARED / "corpus").is_dir():
        with path.open() as handle:
            for line in list(handle)[:limit]:
                item = json.loads(line)
                pdf = SHARED / "corpus" / item["doc"]
                rows.append((pdf.name, pdf.read_bytes(), item["question"]))
    elif limit:
        print("../shared is absent: financebench questions skipped")
    return rows


def _reason_kind(reason: str) -> str:
    """A short class of a fallback reason, for the summary."""
    lowered = reason.lower()
    for needle, kind in (
        ("http", "http error"), ("did not finish", "deadline"), ("timeout", "timeout"), ("within", "deadline"),
        ("budget", "budget"), ("invalid", "invalid reply"), ("connect", "connection"),
    ):  # fmt: skip
        if needle in lowered:
            return kind
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL") or os.environ.get("LOUPE_REAL_LLM_URL"))
    parser.add_argument("--model", default=None)
    parser.add_argument("--financebench", type=int, default=5, help="first N financebench questions (0: none)")
    parser.add_argument("--strategy", default="auto")
    parser.add_argument("--max-seconds", type=float, default=None, help="override the seconds budget")
    parser.add_argument("--timeout", type=float, default=None, help="seconds one request may take")
    parser.add_argument("--report", default=None, help="write the per-question figures as JSON here")
    args = parser.parse_args()
    if not args.base_url:
        parser.error("--base-url (or OPENAI_BASE_URL) is required")
    os.environ.setdefault("OPENAI_API_KEY", "sk-local-bench-key")
    library = tempfile.mkdtemp(prefix="loupe-bench-llm-")
    chosen = {"model": args.model, "timeout_seconds": args.timeout}
    backend_config = BackendConfig(kind="openai", base_url=args.base_url, **{k: v for k, v in chosen.items() if v})
    config = EngineConfig(library=LibraryConfig(path=library), backend=backend_config)
    from engine.api import answer, ingest

    rows = []
    for file_name, data, question in questions(args.financebench):
        doc_id = ingest(data, file_name, config=config).doc_id
        backend = RecordingBackend(make_backend(config.backend))
        started = time.perf_counter()
        result = answer(question, [doc_id], config=config, strategy=args.strategy, backend=backend,
                        budget=BudgetOverride(max_seconds=args.max_seconds))  # fmt: skip
        seconds = time.perf_counter() - started
        answer_fallbacks = [f.reason for f in result.fallbacks if f.task == "answer"]
        log = backend.log
        row = {
            "file": file_name, "question": question[:80], "seconds": round(seconds, 2),
            "llm_calls": result.usage.llm_calls, "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens, "answer_steps": log.model_answers + len(answer_fallbacks),
            "model_answers": log.model_answers, "model_answers_cited": log.model_answers_cited,
            "fallbacks": [f"{f.task}: {f.reason}" for f in result.fallbacks], "stop": result.stop_reason,
            "answer": result.answer.text[:160],
        }  # fmt: skip
        rows.append(row)
        print(
            f"{row['seconds']:7.1f} s  calls {row['llm_calls']:>2}  prompt tokens {row['prompt_tokens']:>6}  "
            f"answer steps {row['answer_steps']} (model {row['model_answers']}, cited {row['model_answers_cited']})  "
            f"fallbacks {len(result.fallbacks)}  stop {row['stop']}  | {file_name}: {question[:60]}"
        )
        for reason in row["fallbacks"]:
            print(f"           fallback {reason[:150]}")
    steps = sum(r["answer_steps"] for r in rows)
    cited = sum(r["model_answers_cited"] for r in rows)
    kinds = Counter(_reason_kind(reason) for r in rows for reason in r["fallbacks"])
    times = [r["seconds"] for r in rows]
    print(
        f"\n{len(rows)} questions: seconds per question median {statistics.median(times):.1f}, "
        f"min {min(times):.1f}, max {max(times):.1f}; answer steps {steps}, "
        f"model-answered with valid citations {cited} ({cited / steps if steps else 0:.0%}); "
        f"prompt tokens {sum(r['prompt_tokens'] for r in rows)}; fallbacks by kind {dict(kinds)}"
    )
    if args.report:
        Path(args.report).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
