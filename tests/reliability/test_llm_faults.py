"""Failing LLM endpoints: bounded retries, then the offline fallback for that step, recorded.

Every test talks to a ``FaultServer`` on 127.0.0.1 (or a closed port) through the real
``OpenAIBackend``; nothing leaves the machine.
"""

from __future__ import annotations

import pytest

from engine.config import BackendConfig
from engine.contracts import ParsedQuestion, TaskRequest
from engine.llm import allow_network, make_backend
from tests.reliability.conftest import SECRET
from tests.reliability.fault_server import closed_port

QUESTION = "What did the Heron survey measure at the twelve stations?"
TIMEOUT = 1.0
RETRIES = 1

# mode -> server options; every one must end in a fallback (bench/hostile_replies.py prints how long each takes)
FAULTS: dict[str, dict] = {
    "hang": {},
    "slow": {"delay": 4.0},
    "trickle": {"delay": 0.4},
    "429": {"retry_after": "1"},
    "429_long_retry_after": {"retry_after": "60"},
    "5xx": {},
    "not_json": {},
    "bad_content": {},
    "schema_break": {},
    "bad_envelope": {},
    "echo_key": {},
}


def _backend(base_url: str, timeout: float = TIMEOUT, retries: int = RETRIES) -> BackendConfig:
    return BackendConfig(kind="openai", model="fault-model", base_url=base_url, api_key=SECRET, timeout_seconds=timeout,
                         max_retries=retries)  # fmt: skip


def _mode(name: str) -> str:
    return "429" if name.startswith("429") else name


def _run_parse(settings: BackendConfig):
    with allow_network(True):
        backend = make_backend(settings)
        return backend.run("parse_question", TaskRequest(question=QUESTION), ParsedQuestion)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_failing_endpoint_falls_back_offline_within_bounds(fault: str, fault_server) -> None:
    server = fault_server(_mode(fault), **FAULTS[fault])
    reply = _run_parse(_backend(server.base_url))
    assert isinstance(reply.value, ParsedQuestion)
    assert reply.value.original_question == QUESTION
    assert reply.fallback is not None, f"{fault}: no fallback recorded"
    assert reply.fallback.task == "parse_question"
    assert reply.fallback.reason.strip()
    assert SECRET not in reply.fallback.reason
    # bounded retries: (1 + retries) transport attempts, times one corrective retry at most
    assert 1 <= server.count() <= (1 + RETRIES) * 2, f"{fault}: {server.count()} requests"


@pytest.mark.timeout(60)
def test_connection_refused_falls_back_offline() -> None:
    port = closed_port()
    reply = _run_parse(_backend(f"http://127.0.0.1:{port}/v1"))
    assert reply.fallback is not None and reply.fallback.task == "parse_question"
    assert isinstance(reply.value, ParsedQuestion)


@pytest.mark.timeout(60)
def test_one_transient_failure_is_retried_and_then_succeeds(fault_server) -> None:
    server = fault_server("flaky", fail_first=1)
    reply = _run_parse(_backend(server.base_url, retries=2))
    assert reply.fallback is None, reply.fallback
    assert server.count() == 2
    assert reply.usage.prompt_tokens == 11 and reply.usage.completion_tokens == 7


@pytest.mark.timeout(60)
def test_healthy_endpoint_is_used_without_fallback(fault_server) -> None:
    server = fault_server("ok")
    reply = _run_parse(_backend(server.base_url))
    assert reply.fallback is None
    assert server.count() == 1
    headers = {k.lower(): v for k, v in server.requests[0].headers.items()}
    assert headers.get("authorization") == f"Bearer {SECRET}"
