"""Exposure: the app listens on this machine only, and visitors never see an exception's details.

``streamlit run app.py`` used to listen on every interface with no login, and an uncaught exception
showed its message and traceback (server paths, an endpoint's reply) to whoever was connected.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

from engine.config import REPO_ROOT
from tests.app.conftest import APP

SECRET_DETAIL = "/srv/private/payroll-2026.pdf"


def _listening_hosts(port: int) -> set[str]:
    """Local addresses with a socket listening on ``port`` (from /proc/net/tcp and tcp6)."""
    hosts: set[str] = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        if not os.path.exists(table):
            continue
        with open(table) as handle:
            next(handle)
            for line in handle:
                local, state = line.split()[1], line.split()[3]
                address, port_hex = local.split(":")
                if state == "0A" and int(port_hex, 16) == port and len(address) == width:
                    hosts.add(address)
    return hosts


LOOPBACK = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1 and ::1 as /proc spells them


@pytest.fixture
def repo_config(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Streamlit's options as read from the repository's .streamlit/config.toml."""
    monkeypatch.chdir(REPO_ROOT)
    st_config.get_config_options(force_reparse=True)
    yield
    st_config.get_config_options(force_reparse=True)


@pytest.mark.timeout(120)
@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="needs Linux /proc/net/tcp")
def test_the_readme_command_listens_on_loopback_only(tmp_path: Path) -> None:
    from tests.e2e.server import streamlit_app

    with streamlit_app(tmp_path, tmp_path / "streamlit.log", address=None) as url:
        hosts = _listening_hosts(int(url.rsplit(":", 1)[1]))
    assert hosts, "no listening socket found"
    assert hosts <= LOOPBACK, f"the app listens beyond this machine: {hosts}"


def test_uncaught_exception_is_redacted_for_visitors_and_logged(
    repo_config: None, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "boom.py"
    script.write_text(f"import streamlit as st\nst.write('hello')\nraise RuntimeError({SECRET_DETAIL!r})\n")
    at = AppTest.from_file(str(script), default_timeout=30).run()
    assert at.exception, "the script's exception was not reported at all"
    shown = " ".join(f"{e.message} {e.stack_trace}" for e in at.exception)
    assert SECRET_DETAIL not in shown and "RuntimeError" not in shown, shown
    out, err = capfd.readouterr()
    assert "payroll-2026" in out + err, "the exception was not logged on the server"


def test_unexpected_engine_failure_shows_a_reference_not_the_details(
    library_dir: Path, repo_config: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from ui import services

    def explode(*args: object, **kwargs: object) -> None:
        raise OSError(f"[Errno 13] Permission denied: {SECRET_DETAIL!r}")

    monkeypatch.setattr(services, "run_question", explode)
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.button(key="loupe_suggest_0").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors and all(SECRET_DETAIL not in e and "Errno" not in e for e in errors), errors
    reference = errors[0].rsplit("reference ", 1)[-1].rstrip(").")
    assert len(reference) == 8, errors[0]
    logged = [r for r in caplog.records if reference in r.getMessage()]
    assert logged and logged[0].exc_info and SECRET_DETAIL in str(logged[0].exc_info[1])


def test_readme_says_how_to_expose_deliberately() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    section = readme.split("## Exposing the app", 1)[-1].split("\n## ", 1)[0]
    assert "## Exposing the app" in readme, "README has no section on exposing the app"
    for needed in ("--server.address", "reverse proxy", "LOUPE_ALLOW_TYPED_ENDPOINTS", "TLS"):
        assert needed in section, f"the exposure section does not mention {needed}"
