"""Deadlines of the openai backend and the embeddings client against a stub endpoint on 127.0.0.1.

    python bench/deadlines.py [--runs 3]

The tests check that these cut-offs happen and say why (tests/llm/test_openai_requests.py,
tests/llm/test_embeddings.py); how long they take depends on the machine, so it is printed here instead.
Printed per case, min / median over the runs of the wall-clock seconds beside the bound the code aims at:

- a reply that hangs 5 s, with 6 s of the run's budget left: cut off at the step's share of those 6 s;
- a reply streaming one piece every 0.4 s, with 5 s left: closed at the step's share, the stream aborted;
- an embeddings endpoint hanging 4 s, with a 1 s timeout and no retry.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pydantic import SecretStr

from engine.config import BackendConfig
from engine.contracts import SubQueryPlan, TaskRequest
from engine.llm import make_backend
from engine.llm.network import allow_network
from engine.llm.tasks import TASKS
from tests.llm.stub_server import StubServer, hang, reply

PLAN = {"sub_queries": [{"query": "Station B turbidity", "purpose": "the value"}]}
SHARE = TASKS["plan_subqueries"].limits.budget_share


def _plan_step(stub: StubServer, seconds_left: float) -> str:
    config = BackendConfig(kind="openai", model="stub-model", base_url=stub.base_url, api_key=SecretStr("sk-bench"),
                           timeout_seconds=20.0, max_retries=0)  # fmt: skip
    with allow_network():
        backend = make_backend(config)
        request = TaskRequest(question="What mean turbidity does Table 3 report?", time_limit_seconds=seconds_left)
        result = backend.run("plan_subqueries", request, SubQueryPlan)
    return result.fallback.reason if result.fallback else "answered"


def hanging_reply() -> tuple[float, str]:
    with StubServer() as stub:
        stub.script(hang(5.0))
        started = time.monotonic()
        outcome = _plan_step(stub, 6.0)
        return time.monotonic() - started, outcome


def slow_stream() -> tuple[float, str]:
    with StubServer() as stub:
        stub.piece_seconds = 0.4
        stub.script(reply(PLAN))
        started = time.monotonic()
        outcome = _plan_step(stub, 5.0)
        elapsed = time.monotonic() - started
        deadline = time.monotonic() + 3.0
        while not stub.stream_aborted and time.monotonic() < deadline:
            time.sleep(0.05)
        return elapsed, f"{outcome}; stream aborted: {stub.stream_aborted}"


def hanging_embeddings() -> tuple[float, str]:
    from engine.llm.embeddings import embedder_for
    from engine.retrieval.protocols import EmbeddingError
    from tests.llm.embeddings_stub import EmbeddingsStub

    os.environ["OPENAI_API_KEY"] = "sk-bench-stub"  # the stub's key (tests/llm/test_embeddings.py does the same)
    with EmbeddingsStub() as stub, allow_network():
        stub.mode, stub.hang_seconds = "hang", 4.0
        config = BackendConfig(embeddings_url=stub.base_url, embeddings_model="stub-embed", max_retries=0,
                               timeout_seconds=1.0)  # fmt: skip
        embedder = embedder_for(config)
        assert embedder is not None
        started = time.monotonic()
        try:
            embedder.embed(["one"])
            outcome = "answered"
        except EmbeddingError as error:
            outcome = error.reason
        return time.monotonic() - started, outcome


CASES: dict[str, tuple[Callable[[], tuple[float, str]], float]] = {
    "reply hangs 5 s, 6 s left": (hanging_reply, SHARE * 6.0),
    "stream 0.4 s/piece, 5 s left": (slow_stream, SHARE * 5.0),
    "embeddings hang 4 s, 1 s timeout": (hanging_embeddings, 1.0),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with StubServer() as stub:  # warm up: the first call imports the HTTP client, which is not what is measured
        stub.script(reply(PLAN))
        _plan_step(stub, 60.0)
    print(f"{'case':34} {'bound s':>8} {'min s':>7} {'median s':>9}  outcome")
    for name, (case, bound) in CASES.items():
        times, outcome = [], ""
        for _ in range(args.runs):
            seconds, outcome = case()
            times.append(seconds)
        print(f"{name:34} {bound:8.2f} {min(times):7.2f} {statistics.median(times):9.2f}  {outcome[:90]}")


if __name__ == "__main__":
    main()
