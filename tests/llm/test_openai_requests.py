"""What the openai backend sends and how it reads the replies: sizes, modes, deadlines, usage."""

from __future__ import annotations

import re
import time
from typing import get_args

import pytest
from pydantic import SecretStr

from engine.config import BackendConfig
from engine.contracts import (
    AnswerWithEvidence,
    EvidenceItem,
    ExecutionPlan,
    ParsedQuestion,
    SubQueryPlan,
    TaskName,
    TaskRequest,
)
from engine.llm import FallbackBackend, make_backend
from engine.llm.network import allow_network
from engine.llm.openai_compat import OpenAIBackend
from engine.llm.structured import MODES
from engine.llm.tasks import TASKS
from tests.llm.stub_server import StubServer, hang, raw, reply, status

KEY = "sk-test-SECRET-77aa11bb22"
QUESTION = "What mean turbidity does Table 3 report for Station B?"
PLAN = {"sub_queries": [{"query": "Station B turbidity", "purpose": "the value"}]}
LLAMA_REFUSAL = "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}]"  # fmt: skip


@pytest.fixture
def stub():
    with StubServer() as server:
        yield server


def backend_for(stub: StubServer, **settings) -> FallbackBackend:
    """The backend the factory builds for the endpoint (falling back to the offline rules step by step)."""
    values = {"kind": "openai", "model": "stub-model", "base_url": stub.base_url, "api_key": SecretStr(KEY),
              "timeout_seconds": 2.0, "max_retries": 0, **settings}  # fmt: skip
    with allow_network():
        backend = make_backend(BackendConfig(**values))
    assert isinstance(backend, FallbackBackend) and isinstance(backend.primary, OpenAIBackend)
    return backend


def events(backend: FallbackBackend) -> list[str]:
    return backend.primary.events  # type: ignore[attr-defined]


def run(backend: OpenAIBackend, task="plan_subqueries", output=SubQueryPlan, **request):
    with allow_network():
        return backend.run(task, TaskRequest(question=QUESTION, **request), output)


def passages(count: int, words: int = 40) -> tuple[EvidenceItem, ...]:
    return tuple(
        EvidenceItem(chunk_id=f"d:p{n}:b0", doc_id="d", file_name="r.pdf", page=n,
                     text=f"Station {n} turbidity was {n}.5 NTU. " + "filler " * words)
        for n in range(1, count + 1)
    )  # fmt: skip


# ---- request sizes ------------------------------------------------------------------------------


@pytest.mark.parametrize("task", sorted(get_args(TaskName)))
def test_every_request_carries_the_tasks_max_tokens_and_temperature(stub, task):
    assert task in TASKS, "every backend task has its request size and reply schema"
    stub.script(status(400, message="stop here"))
    run(backend_for(stub), task=task, output=_output(task))
    body = stub.requests[0].body
    assert body["max_tokens"] == TASKS[task].limits.max_tokens
    assert body["temperature"] == TASKS[task].limits.temperature


def _output(task: str):
    from engine.contracts.backend import TASK_OUTPUTS

    return TASK_OUTPUTS[task]


def test_evidence_is_fitted_to_the_context_window(stub):
    stub.script(reply({"statements": [], "answer_found": False, "missing": []}))
    backend = backend_for(stub, context_window_tokens=1200)
    result = run(backend, task="answer", output=AnswerWithEvidence, evidence=passages(20, words=60))
    prompt = stub.requests[0].body["messages"][1]["content"]
    shown = [n for n in range(1, 21) if f"[{n}] r.pdf" in prompt]
    assert shown and shown == list(range(1, len(shown) + 1)) and len(shown) < 20
    assert result.fallback is None
    assert any("fit the context window" in e for e in events(backend))


# ---- the output-mode ladder -----------------------------------------------------------------------


def test_500_naming_response_format_switches_to_json_object_with_the_schema_and_is_remembered(stub):
    stub.script(status(500, message=LLAMA_REFUSAL), reply(PLAN))
    backend = backend_for(stub, max_retries=2)
    first = run(backend)
    assert first.fallback is None and first.value.sub_queries[0].query == "Station B turbidity"
    assert len(stub.requests) == 2, "a refusal is not retried as a temporary error"
    sent = stub.requests[1].body["response_format"]
    assert sent["type"] == "json_object" and sent["schema"]["properties"]["sub_queries"]
    assert first.usage.calls == 2
    assert any("refused response_format json_schema (HTTP 500)" in e for e in events(backend))

    stub.script(reply(PLAN))
    again = run(backend_for(stub))  # a new backend on the same endpoint remembers the mode
    assert again.fallback is None and len(stub.requests) == 1
    assert stub.requests[0].body["response_format"]["type"] == "json_object"


def test_refused_json_object_goes_to_plain_text_and_the_json_is_extracted(stub):
    stub.script(
        status(400, message="response_format json_schema is not supported"),
        status(400, message="unknown field response_format"),
        raw('Sure, here it is:\n```json\n{"sub_queries": [{"query": "Station B turbidity"}]}\n```'),
    )
    result = run(backend_for(stub))
    assert result.fallback is None and result.value.sub_queries[0].query == "Station B turbidity"
    last = stub.requests[2].body
    assert "response_format" not in last
    assert "JSON schema" in last["messages"][0]["content"], "without a server-side schema the prompt carries it"


def test_a_plain_500_is_retried_and_never_changes_the_mode(stub):
    stub.script(status(500, {"retry-after-ms": "10", "retry-after": "0"}), reply(PLAN))
    result = run(backend_for(stub, max_retries=1))
    assert result.fallback is None and len(stub.requests) == 2
    assert all(r.body["response_format"]["type"] == "json_schema" for r in stub.requests)
    assert MODES.get(stub.base_url, "stub-model") == "json_schema"


def test_a_400_without_response_format_is_a_fallback_that_keeps_the_servers_words(stub):
    stub.script(status(400, message="Requested tokens (9000) exceed context window of 8192"))
    result = run(backend_for(stub))
    assert result.fallback is not None and "exceed context window of 8192" in result.fallback.reason
    assert "HTTP 400" in result.fallback.reason and len(stub.requests) == 1


# ---- usage ------------------------------------------------------------------------------------------


def test_a_length_limited_reply_is_not_retried_and_its_tokens_are_counted(stub):
    stub.script(raw('{"sub_queries": [{"query": "Station', finish_reason="length"), reply(PLAN))
    result = run(backend_for(stub))
    assert result.fallback is not None and "cut off at its 160-token cap" in result.fallback.reason
    assert len(stub.requests) == 1, "asking again would restart the same runaway reply"
    assert (result.usage.calls, result.usage.prompt_tokens, result.usage.completion_tokens) == (1, 11, 7)


def test_a_timed_out_request_counts_its_call_and_prompt(stub):
    stub.script(hang(3.0))
    result = run(backend_for(stub, timeout_seconds=0.5))
    assert result.fallback is not None
    assert result.usage.calls == 1 and result.usage.prompt_tokens > 0


# ---- deadlines --------------------------------------------------------------------------------------


def test_a_step_gets_its_share_of_the_seconds_left(stub):
    """A reply that comes after 5 s is cut off at the step's share of the 6 s left (not at the 20 s timeout);
    the reason names the seconds it was given (the share less what the step spent before its request). How long
    the cut-off takes is printed by bench/deadlines.py."""
    stub.script(hang(5.0))
    result = run(backend_for(stub, timeout_seconds=20.0), time_limit_seconds=6.0)
    share = TASKS["plan_subqueries"].limits.budget_share * 6.0
    assert result.fallback is not None
    cut = re.search(r"did not finish its reply within ([0-9.]+) s", result.fallback.reason)
    assert cut is not None, result.fallback.reason
    assert 0 < float(cut.group(1)) <= share, "the deadline given was the step's share, not the 20 s timeout"


def test_no_request_when_the_budget_leaves_too_little_time(stub):
    stub.script(reply(PLAN))
    result = run(backend_for(stub), time_limit_seconds=0.5)
    assert result.fallback is not None and "seconds budget" in result.fallback.reason
    assert not stub.requests


# ---- the model's name ---------------------------------------------------------------------------------


def test_without_a_model_name_the_endpoints_only_model_is_used(stub):
    stub.script(reply(PLAN))
    result = run(backend_for(stub, model=None))
    assert result.fallback is None and stub.requests[0].body["model"] == "stub-model"


def test_without_a_model_name_several_models_need_a_choice(stub):
    stub.models = ("alpha", "beta")
    stub.script(reply(PLAN))
    result = run(backend_for(stub, model=None))
    assert result.fallback is not None and "--model" in result.fallback.reason and "alpha" in result.fallback.reason
    assert not stub.requests


# ---- what code decides -----------------------------------------------------------------------------------


def test_the_models_question_keywords_must_come_from_the_question(stub):
    stub.script(reply({"intent": "single_fact", "keywords": ["turbidity", "5.4", "Station B"], "asks_for_value": True}))
    result = run(backend_for(stub), task="parse_question", output=ParsedQuestion)
    assert result.fallback is None
    parsed = result.value
    assert parsed.keywords == ("turbidity", "Station B")
    assert parsed.references == ("Table 3",) and parsed.retrieval.layout_hint == "table"
    assert parsed.original_question == QUESTION and parsed.complexity == "simple"


def test_a_plan_with_an_unknown_dependency_is_repaired_without_a_retry(stub):
    plan = {"steps": [{"step_id": "s1", "query": "Station B turbidity", "depends_on": ["s2"]},
                      {"step_id": "s2", "query": "stations near {s1}"}]}  # fmt: skip
    stub.script(reply(plan))
    backend = backend_for(stub)
    result = run(backend, task="make_plan", output=ExecutionPlan)
    assert result.fallback is None and result.usage.calls == 1
    steps = {s.step_id: s.depends_on for s in result.value.steps}
    assert steps == {"s1": (), "s2": ("s1",)}
    assert sum("plan repaired" in e for e in events(backend)) == 2


def test_a_corrective_retry_is_recorded(stub):
    stub.script(raw("not json"), reply(PLAN))
    backend = backend_for(stub)
    result = run(backend)
    assert result.fallback is None and result.usage.calls == 2
    assert any("corrective retry" in e for e in events(backend))


# ---- streaming ------------------------------------------------------------------------------------------

STREAMED = {
    "statements": [{"text": "Station 1 turbidity was 1.5 NTU.", "passages": [1]},
                   {"text": "Station 2 turbidity was 2.5 NTU.", "passages": [2]}],
    "answer_found": True, "missing": [],
}  # fmt: skip


@pytest.mark.parametrize("usage_in_stream", [True, False])
def test_the_answer_streams_its_text_and_is_still_verified(stub, usage_in_stream):
    from engine.llm.streaming import stream_answer_text

    stub.with_usage_in_stream = usage_in_stream
    stub.script(reply(STREAMED))
    pieces: list[str] = []
    with stream_answer_text(pieces.append):
        result = run(backend_for(stub), task="answer", output=AnswerWithEvidence, evidence=passages(2))
    assert stub.requests[0].body["stream"] is True
    assert len(pieces) > 3 and "".join(pieces) == "Station 1 turbidity was 1.5 NTU. Station 2 turbidity was 2.5 NTU."
    assert result.fallback is None and [c.page for c in result.value.citations] == [1, 2]
    assert result.usage.prompt_tokens == 11 if usage_in_stream else result.usage.prompt_tokens > 11


def test_a_server_that_ignores_stream_is_read_as_one_completion(stub):
    stub.ignore_stream = True
    stub.script(reply(PLAN))
    result = run(backend_for(stub))
    assert stub.requests[0].body["stream"] is True
    assert result.fallback is None and result.usage.prompt_tokens == 11


def test_a_reply_still_streaming_at_the_deadline_is_closed_so_the_server_stops(stub):
    stub.piece_seconds = 0.4
    stub.script(reply(PLAN))
    result = run(backend_for(stub, timeout_seconds=20.0), time_limit_seconds=5.0)
    assert result.fallback is not None and "did not finish its reply" in result.fallback.reason
    deadline = time.monotonic() + 3.0
    while not stub.stream_aborted and time.monotonic() < deadline:
        time.sleep(0.05)
    assert stub.stream_aborted, "the connection was closed before the reply's end"
    assert result.usage.calls == 1 and result.usage.prompt_tokens > 0
