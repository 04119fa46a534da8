"""The embeddings client against a stub ``/v1/embeddings`` server: vectors in order, every failure a safe reason,
and each key only where it may go."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from pydantic import SecretStr

from engine.config import BackendConfig
from engine.llm import allow_network
from engine.llm.embeddings import TYPED_EMBEDDINGS_FAILED, OpenAIEmbedder, embedder_for
from engine.retrieval.protocols import Embedder, EmbeddingError
from tests.llm.embeddings_stub import EmbeddingsStub, letter_vector

SERVER_KEY = "sk-server-0123456789abcdef"
CHAT_KEY = "sk-chat-0123456789abcdef"
OWN_KEY = "sk-embed-0123456789abcdef"


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddingsStub]:
    monkeypatch.setenv("OPENAI_API_KEY", SERVER_KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with EmbeddingsStub() as server, allow_network():
        yield server


def _embedder(stub: EmbeddingsStub, **settings: object) -> OpenAIEmbedder:
    config = BackendConfig(embeddings_url=stub.base_url, embeddings_model="stub-embed", **settings)  # type: ignore[arg-type]
    embedder = embedder_for(config)
    assert embedder is not None
    return embedder


def test_no_embeddings_configured_means_no_embedder() -> None:
    assert embedder_for(BackendConfig()) is None
    assert embedder_for(BackendConfig(kind="openai", model="m")) is None


def test_vectors_come_back_in_input_order(stub: EmbeddingsStub) -> None:
    embedder = _embedder(stub)
    assert isinstance(embedder, Embedder)
    texts = ["alpha", "zzz", "beta beta", "quartz"]
    rows = embedder.embed(texts)
    assert rows.dtype == np.float32 and rows.shape == (4, 27)
    assert np.allclose(rows, np.array([letter_vector(t) for t in texts], dtype=np.float32))
    (sent,) = stub.requests
    assert sent.path == "/v1/embeddings"
    assert sent.body == {"model": "stub-embed", "input": texts, "encoding_format": "float"}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("500", "HTTP 500"),
        ("not_json", "not JSON"),
        ("wrong_count", "3 vectors for 4 texts"),
        ("wrong_dim", "differ in width"),
    ],
)
def test_each_failure_is_an_embedding_error_with_its_reason(stub: EmbeddingsStub, mode: str, expected: str) -> None:
    stub.mode = mode
    with pytest.raises(EmbeddingError) as caught:
        _embedder(stub, max_retries=0).embed(["one", "two", "three", "four"])
    assert expected in caught.value.reason
    assert caught.value.reason.startswith("embeddings endpoint: ")
    assert "\n" not in caught.value.reason


def test_a_hanging_endpoint_times_out(stub: EmbeddingsStub) -> None:
    stub.mode, stub.hang_seconds = "hang", 4.0
    with pytest.raises(
        EmbeddingError
    ) as caught:  # without the timeout the reply would come after 4 s (bench/deadlines.py times it)
        _embedder(stub, max_retries=0, timeout_seconds=1.0).embed(["one"])
    assert "within" in caught.value.reason or "timeout" in caught.value.reason


def test_a_key_echoed_by_the_endpoint_is_masked(stub: EmbeddingsStub) -> None:
    stub.mode = "echo_key"
    with pytest.raises(EmbeddingError) as caught:
        _embedder(stub, max_retries=0).embed(["one"])
    assert "HTTP 401" in caught.value.reason
    assert SERVER_KEY not in caught.value.reason and "***" in caught.value.reason


def test_another_endpoint_gets_its_own_key_never_the_chat_key(stub: EmbeddingsStub) -> None:
    chat = {"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "api_key": SecretStr(CHAT_KEY)}
    _embedder(stub, **chat, embeddings_api_key=SecretStr(OWN_KEY)).embed(["one"])
    assert stub.requests[-1].headers["authorization"] == f"Bearer {OWN_KEY}"
    _embedder(stub, **chat).embed(["one"])  # the operator's own endpoint, no key of its own: the server's key
    assert stub.requests[-1].headers["authorization"] == f"Bearer {SERVER_KEY}"
    assert all(CHAT_KEY not in str(r.headers) for r in stub.requests)


def test_the_chat_endpoint_serving_embeddings_gets_the_chat_key(stub: EmbeddingsStub) -> None:
    config = BackendConfig(kind="openai", base_url=stub.base_url, api_key=SecretStr(CHAT_KEY), embeddings_model="e")
    embedder = embedder_for(config)
    assert embedder is not None
    embedder.embed(["one"])
    assert stub.requests[-1].headers["authorization"] == f"Bearer {CHAT_KEY}"


def test_a_typed_embeddings_endpoint_never_gets_the_server_key(stub: EmbeddingsStub) -> None:
    visitor = {"endpoint_source": "visitor", "api_key": SecretStr(CHAT_KEY)}
    with pytest.raises(EmbeddingError) as caught:
        _embedder(stub, **visitor).embed(["one"])
    assert "its own API key" in caught.value.reason
    assert stub.requests == []  # refused before any request
    _embedder(stub, **visitor, embeddings_api_key=SecretStr(OWN_KEY)).embed(["one"])
    assert stub.requests[-1].headers["authorization"] == f"Bearer {OWN_KEY}"


def test_a_typed_endpoint_failure_reads_one_generic_line(stub: EmbeddingsStub) -> None:
    stub.mode = "500"
    settings = {"endpoint_source": "visitor", "embeddings_api_key": SecretStr(OWN_KEY), "max_retries": 0}
    with pytest.raises(EmbeddingError) as caught:
        _embedder(stub, **settings).embed(["one"])
    assert caught.value.reason == f"embeddings endpoint: {TYPED_EMBEDDINGS_FAILED}"


def test_no_network_switch_is_a_reason_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SERVER_KEY)
    embedder = embedder_for(BackendConfig(embeddings_url="https://embed.example.com/v1", embeddings_model="e"))
    assert embedder is not None
    with pytest.raises(EmbeddingError) as caught:
        embedder.embed(["one"])
    assert "LOUPE_NO_NETWORK" in caught.value.reason


def test_an_unnamed_model_is_a_reason(stub: EmbeddingsStub) -> None:
    embedder = embedder_for(BackendConfig(embeddings_url=stub.base_url))
    assert embedder is not None
    with pytest.raises(EmbeddingError, match="--embeddings-model"):
        embedder.embed(["one"])
