"""LLM replies are read with a byte cap and a wall-clock deadline.

An endpoint that streamed its reply forever drove ``ask`` to 10 GB of memory (and a Streamlit server
would have kept it); a 100 MB reply was accepted whole as the answer text.
"""

from __future__ import annotations

import json

import httpx2
import pytest

from tests.reliability.fault_server import completion
from tests.reliability.reply_probe import probe

CAP = 2_000_000


def _client(max_bytes: int = CAP, seconds: float = 5.0) -> httpx2.Client:
    from engine.llm.bounded_http import BoundedTransport

    return httpx2.Client(transport=BoundedTransport(max_bytes, seconds), timeout=10.0)


def _post(client: httpx2.Client, base_url: str) -> httpx2.Response:
    return client.post(base_url + "/chat/completions", json={"model": "m", "messages": []})


@pytest.mark.timeout(60)
def test_an_endless_reply_is_cut_off_at_the_byte_cap(fault_server) -> None:
    from engine.llm.bounded_http import ReplyLimitExceeded

    server = fault_server("endless")
    with _client() as client, pytest.raises(ReplyLimitExceeded, match="larger than 2 MB"):
        _post(client, server.base_url)
    server.stop()
    assert server.sent_bytes < 50 * CAP, f"the client kept reading: {server.sent_bytes:,} bytes sent"


@pytest.mark.timeout(60)
def test_a_declared_100_mb_reply_is_refused_before_reading(fault_server) -> None:
    from engine.llm.bounded_http import ReplyLimitExceeded

    server = fault_server("huge", huge_mb=100)
    with _client() as client, pytest.raises(ReplyLimitExceeded, match="larger than"):
        _post(client, server.base_url)


@pytest.mark.timeout(60)
def test_a_trickling_reply_is_cut_off_at_the_deadline(fault_server) -> None:
    from engine.llm.bounded_http import ReplyLimitExceeded

    server = fault_server("trickle", delay=0.05)  # about 10 s for the whole body, one byte at a time
    with _client(seconds=1.0) as client, pytest.raises(ReplyLimitExceeded, match="within 1 s"):
        _post(client, server.base_url)


def test_a_normal_reply_passes_unchanged(fault_server) -> None:
    server = fault_server("ok", content=lambda body: '{"answer": "4.6 NTU"}')
    with _client() as client:
        reply = _post(client, server.base_url)
    assert reply.status_code == 200
    assert json.loads(reply.json()["choices"][0]["message"]["content"]) == {"answer": "4.6 NTU"}
    assert reply.json()["usage"] == completion("")["usage"]


def test_the_limit_is_found_behind_a_wrapping_error() -> None:
    from engine.llm.bounded_http import ReplyLimitExceeded, limit_of

    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    cause = ReplyLimitExceeded("the endpoint's reply was larger than 2 MB; it was cut off", request=request)
    try:
        try:
            raise cause
        except ReplyLimitExceeded as error:
            raise RuntimeError("Connection error.") from error
    except RuntimeError as wrapped:
        assert limit_of(wrapped) is cause
    assert limit_of(RuntimeError("other")) is None


# ------------------------------------------------------------------------------------------------
# Through the backend, in a fresh process: time and peak memory of a hostile reply
# ------------------------------------------------------------------------------------------------


@pytest.mark.timeout(300)
@pytest.mark.parametrize("mode", ["endless", "huge"])
def test_a_hostile_reply_costs_neither_memory_nor_time(mode: str, fault_server) -> None:
    baseline = probe(fault_server("ok").base_url)
    assert baseline["reason"] is None, baseline
    hostile = probe(fault_server(mode).base_url)
    assert hostile["reason"] and "larger than 4 MB" in hostile["reason"], hostile
    assert hostile["peak_mb"] < baseline["peak_mb"] + 100, (baseline, hostile)
    # its time is printed by bench/hostile_replies.py (no wall-clock limit here: machines differ)
