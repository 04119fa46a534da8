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
