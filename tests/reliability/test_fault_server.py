"""The fault server itself misbehaves as documented (checked with the plain openai client)."""

from __future__ import annotations

import openai
import pytest

from engine.contracts import TASK_OUTPUTS
from tests.reliability.conftest import SECRET
from tests.reliability.fault_server import closed_port, minimal_instance

SCHEMA = {"type": "object", "properties": {"a": {"type": "integer", "minimum": 2}}, "required": ["a"]}


def _call(base_url: str, timeout: float = 1.0, retries: int = 0):
    client = openai.OpenAI(base_url=base_url, api_key=SECRET, timeout=timeout, max_retries=retries)
    return client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": "hi"}],
        response_format={"type": "json_schema", "json_schema": {"name": "X", "schema": SCHEMA}},
    )


@pytest.mark.parametrize("task", sorted(TASK_OUTPUTS))
def test_minimal_instance_validates_every_task_schema(task: str) -> None:
    model = TASK_OUTPUTS[task]
    model.model_validate(minimal_instance(model.model_json_schema()))


@pytest.mark.timeout(30)
def test_ok_mode_answers_the_requested_schema(fault_server) -> None:
    server = fault_server("ok")
    reply = _call(server.base_url)
    assert reply.choices[0].message.content == '{"a": 2}'
    headers = {k.lower(): v for k, v in server.requests[0].headers.items()}
    assert headers["authorization"] == f"Bearer {SECRET}"


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("mode", "error"),
    [("429", openai.RateLimitError), ("5xx", openai.InternalServerError), ("hang", openai.APITimeoutError),
     ("echo_key", openai.AuthenticationError)],
)  # fmt: skip
def test_error_modes_raise_the_expected_client_error(mode: str, error: type, fault_server) -> None:
    server = fault_server(mode, retry_after="0")
    with pytest.raises(error) as info:
        _call(server.base_url, retries=1)
    assert server.count() == (1 if mode == "echo_key" else 2)  # 401 is not retried
    if mode == "echo_key":
        assert SECRET in str(info.value), "echo_key must echo the key (that is what makes it hostile)"


@pytest.mark.timeout(30)
def test_not_json_and_bad_envelope_slip_past_the_client(fault_server) -> None:
    """The client returns a str / an unvalidated object here: backends must check what they got."""
    assert isinstance(_call(fault_server("not_json").base_url), str)
    assert _call(fault_server("bad_envelope").base_url).choices == "later"


@pytest.mark.timeout(30)
def test_trickle_defeats_a_per_read_timeout(fault_server) -> None:
    """The client's 1 s timeout is per read: a byte every 0.3 s never trips it, so the client goes on reading
    (well over 1 s / 0.3 s = 3 bytes) until the server stops after 3 s."""
    import threading

    server = fault_server("trickle", delay=0.3)
    client = openai.OpenAI(base_url=server.base_url, api_key=SECRET, timeout=1.0, max_retries=0)
    threading.Timer(3.0, server.stop).start()
    with pytest.raises(openai.APIError):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    assert server.sent_bytes > 4, f"a 1 s timeout stopped a byte-every-0.3s reply after {server.sent_bytes} bytes"


def test_closed_port_refuses() -> None:
    with pytest.raises(openai.APIConnectionError):
        _call(f"http://127.0.0.1:{closed_port()}/v1")
