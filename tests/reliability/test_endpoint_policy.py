"""Whose key goes where: the server's key only to the server's endpoint; a typed endpoint brings its own.

With ``OPENAI_API_KEY`` set on the server and a Base URL typed in the sidebar with no key, the request
to that URL used to carry ``Bearer <server key>``; and the web API key sat in plain session state.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import SecretStr
from streamlit.testing.v1 import AppTest

from engine.config import BackendConfig
from engine.errors import BackendError
from tests.app.conftest import APP
from tests.reliability.conftest import SECRET

SERVER_URL = "http://127.0.0.1:9/v1"
VISITOR_KEY = "sk-visitor-OWN-456"


@pytest.fixture
def server_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("OPENAI_BASE_URL", SERVER_URL)
    monkeypatch.delenv("LOUPE_ALLOW_TYPED_ENDPOINTS", raising=False)


def _visitor(base_url: str | None, key: str | None = None) -> BackendConfig:
    return BackendConfig(
        kind="openai", base_url=base_url, api_key=SecretStr(key) if key else None, endpoint_source="visitor"
    )


def test_server_key_goes_only_to_the_server_endpoint(server_key: None) -> None:
    assert _visitor(None).credentials() == (SERVER_URL, SECRET)
    assert _visitor(SERVER_URL + "/").credentials() == (SERVER_URL + "/", SECRET)  # the same endpoint, typed
    with pytest.raises(BackendError, match="needs its own API key"):
        _visitor("http://attacker.example:8080/v1").credentials()


def test_a_typed_endpoint_uses_the_visitors_key(server_key: None) -> None:
    url, key = _visitor("http://attacker.example:8080/v1", VISITOR_KEY).credentials()
    assert (url, key) == ("http://attacker.example:8080/v1", VISITOR_KEY)


def test_operator_endpoints_keep_working(server_key: None) -> None:
    """The CLI and code are the operator: their base URL may use the server's key."""
    assert BackendConfig(kind="openai", base_url="http://127.0.0.1:8000/v1").credentials()[1] == SECRET


def test_the_operator_can_forbid_typed_endpoints(server_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOUPE_ALLOW_TYPED_ENDPOINTS", "0")
    with pytest.raises(BackendError, match="does not let visitors choose an endpoint"):
        _visitor("http://elsewhere.example/v1", VISITOR_KEY).credentials()
    assert _visitor(None, VISITOR_KEY).credentials() == (SERVER_URL, VISITOR_KEY)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "127.0.0.1:8000"])
def test_only_http_endpoints(url: str, server_key: None) -> None:
    with pytest.raises(BackendError, match="http"):
        _visitor(url, VISITOR_KEY).credentials()


@pytest.mark.parametrize("key", ["sk-caf\u00e9-123", "sk-line\nbreak", "sk-\u200bzero-width"])
def test_a_key_no_header_can_carry_is_named_as_such(key: str, server_key: None) -> None:
    with pytest.raises(BackendError, match="API key holds characters"):
        _visitor(None, key).credentials()


def test_same_endpoint_ignores_case_and_trailing_slash() -> None:
    from engine.config import same_endpoint

    assert same_endpoint("HTTP://LocalHost:8000/v1/", "http://localhost:8000/v1")
    assert same_endpoint(None, "https://api.openai.com/v1")
    assert not same_endpoint("http://localhost:8000/v1", "http://localhost:8001/v1")
    assert not same_endpoint("http://localhost:8000/v1", "http://localhost:8000/v2")


def _openai_sidebar() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.sidebar.radio(key="loupe_w_backend").set_value("openai").run()
    return at


def test_sidebar_marks_typed_endpoints_and_warns_without_a_key(library_dir: Path, server_key: None) -> None:
    from ui.settings import build_config

    at = _openai_sidebar()
    at.sidebar.text_input(key="loupe_w_base_url").input("http://attacker.example:8080/v1").run()
    assert not at.exception
    assert any("needs your own API key" in w.value for w in at.sidebar.warning), [w.value for w in at.sidebar.warning]
    config = build_config("balanced", "openai", "http://attacker.example:8080/v1", "m", "", "auto")
    assert config.backend.endpoint_source == "visitor"
    with pytest.raises(BackendError, match="needs its own API key"):
        config.backend.credentials()


def test_sidebar_has_no_base_url_when_the_operator_forbids_it(
    library_dir: Path, server_key: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOUPE_ALLOW_TYPED_ENDPOINTS", "0")
    at = _openai_sidebar()
    assert not at.exception
    assert not [t for t in at.sidebar.text_input if t.label == "Base URL"]
    assert any("does not let visitors choose" in c.value for c in at.sidebar.caption)


def test_the_web_key_is_masked_in_session_state(library_dir: Path) -> None:
    at = _openai_sidebar()
    at.sidebar.text_input(key="loupe_w_api_key").input(VISITOR_KEY).run()
    at.run()
    assert not at.exception
    namespace = at.session_state["loupe"]
    assert VISITOR_KEY not in repr(namespace) and VISITOR_KEY not in str(namespace)
    stored = namespace["secrets"]["api_key"]
    assert isinstance(stored, SecretStr) and stored.get_secret_value() == VISITOR_KEY
    assert at.sidebar.text_input(key="loupe_w_api_key").value == VISITOR_KEY


# ------------------------------------------------------------------------------------------------
# The requests themselves
# ------------------------------------------------------------------------------------------------


def _parse_with(config: BackendConfig):
    from engine.contracts import ParsedQuestion, TaskRequest
    from engine.llm import allow_network, make_backend

    with allow_network(True):
        return make_backend(config).run(
            "parse_question", TaskRequest(question="What did the Heron survey measure?"), ParsedQuestion
        )


def _visitor_config(base_url: str, key: str = "", model: str = "fault-model") -> BackendConfig:
    from ui.settings import build_config

    backend = build_config("balanced", "openai", base_url, model, key, "auto").backend
    return backend.model_copy(update={"timeout_seconds": 1.0, "max_retries": 0})


def _bearers(server) -> list[str]:
    return [{k.lower(): v for k, v in r.headers.items()}.get("authorization", "") for r in server.requests]


@pytest.mark.timeout(60)
def test_a_typed_endpoint_never_receives_the_server_key(server_key: None, fault_server) -> None:
    server = fault_server("ok")
    reply = _parse_with(_visitor_config(server.base_url))
    assert all(SECRET not in bearer for bearer in _bearers(server)), "the server's key went to a typed endpoint"
    assert reply.fallback is not None and "needs its own API key" in reply.fallback.reason


@pytest.mark.timeout(60)
def test_a_typed_endpoint_gets_the_visitors_own_key(server_key: None, fault_server) -> None:
    server = fault_server("ok")
    reply = _parse_with(_visitor_config(server.base_url, VISITOR_KEY))
    assert reply.fallback is None, reply.fallback
    assert _bearers(server) == [f"Bearer {VISITOR_KEY}"]


@pytest.mark.timeout(120)
def test_fallback_reasons_on_a_typed_endpoint_do_not_map_the_network(server_key: None, fault_server) -> None:
    """Refused, an HTTP error, an error page, a reply that is not a completion: one and the same note."""
    from tests.reliability.fault_server import closed_port

    urls = {"refused": f"http://127.0.0.1:{closed_port()}/v1"}
    urls |= {mode: fault_server(mode).base_url for mode in ("5xx", "not_json", "bad_envelope", "echo_key")}
    reasons = {name: _parse_with(_visitor_config(url, VISITOR_KEY)).fallback for name, url in urls.items()}
    # with no model named, the backend first asks the endpoint for its models: that failure reads the same
    reasons |= {f"{name} (listing models)": _parse_with(_visitor_config(url, VISITOR_KEY, model="")).fallback
                for name, url in urls.items()}  # fmt: skip
    assert all(r is not None for r in reasons.values()), reasons
    texts = {name: r.reason for name, r in reasons.items() if r is not None}
    assert len(set(texts.values())) == 1, texts
    assert not any(word in next(iter(texts.values())).lower() for word in ("connect", "http", "json", "timeout"))


@pytest.mark.timeout(60)
def test_the_operator_still_sees_why_an_endpoint_failed(server_key: None) -> None:
    from tests.reliability.fault_server import closed_port

    config = BackendConfig(kind="openai", base_url=f"http://127.0.0.1:{closed_port()}/v1", timeout_seconds=1,
                           max_retries=0)  # fmt: skip
    reply = _parse_with(config)
    assert reply.fallback is not None and "connect" in reply.fallback.reason
