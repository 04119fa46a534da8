"""Sign-in through a local OpenID Connect provider: two browser contexts, two users, each sees only their own.

The provider is ``oidc-provider-mock`` on 127.0.0.1 (started here, in a thread); the app reads it from a
secrets file of this test (``--secrets.files``), so the repository's ``.streamlit/`` is never written.
Needs PostgreSQL (access control is for a team library) and Debian's chromium.
"""

from __future__ import annotations

import json
import secrets
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.server import ARGS, chromium, free_port, streamlit_app
from tests.history.test_access_control import HARBOUR, ORCHARD, Cli, _pdf

pytestmark = pytest.mark.postgres

ALICE, BOB = "alice@example.com", "bob@example.com"
ALICE_Q, BOB_Q = "How many tonnes does the harbour crane lift?", "How many crates of quince were picked?"


@pytest.fixture
def provider() -> Iterator[str]:
    """oidc-provider-mock on 127.0.0.1 with two users (their e-mail is the name the app knows them by)."""
    oidc = pytest.importorskip("oidc_provider_mock")
    from werkzeug.serving import make_server

    server = make_server("127.0.0.1", 0, oidc.app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    try:
        for sub, email in (("alice", ALICE), ("bob", BOB)):
            body = json.dumps({"email": email, "email_verified": True}).encode()
            request = urllib.request.Request(f"{url}/users/{sub}", data=body, method="PUT",
                                             headers={"Content-Type": "application/json"})  # fmt: skip
            with urllib.request.urlopen(request, timeout=10) as reply:
                assert reply.status == 204
        yield url
    finally:
        server.shutdown()
        thread.join(5)


@pytest.fixture
def team(pg_url: str, library_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
         capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    monkeypatch.setenv("LOUPE_ADMINS", "root")
    monkeypatch.delenv("LOUPE_USER", raising=False)
    cli = Cli(capsys)
    for name, user in (("harbour", ALICE), ("orchard", BOB)):
        cli("root", "collections", "create", name)
        cli("root", "collections", "add-member", name, user, "--role", "editor")
    cli(ALICE, "ingest", str(_pdf(HARBOUR, tmp_path / "harbour.pdf")))
    cli(BOB, "ingest", str(_pdf(ORCHARD, tmp_path / "orchard.pdf")))
    cli(ALICE, "ask", "--all", ALICE_Q)
    cli(BOB, "ask", "--all", BOB_Q)


@pytest.mark.timeout(300)
def test_two_users_signed_in_in_two_browsers_each_see_only_their_collection(
    team: None, provider: str, library_dir: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    executable = chromium()
    port = free_port()
    secrets_file = tmp_path / "secrets.toml"
    secrets_file.write_text(
        "[auth]\n"
        f'redirect_uri = "http://127.0.0.1:{port}/oauth2callback"\n'
        f'cookie_secret = "{secrets.token_hex(16)}"\n'
        'client_id = "loupe-test"\nclient_secret = "loupe-test-secret"\n'
        f'server_metadata_url = "{provider}/.well-known/openid-configuration"\n'
    )
    expect.set_options(timeout=90_000)
    extra = ("--secrets.files", str(secrets_file))
    with streamlit_app(library_dir, tmp_path / "streamlit.log", port=port, extra=extra) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        pages = {}
        for sub in ("alice", "bob", "root"):  # separate contexts: separate cookie jars, separate sessions
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(90_000)
            page.goto(url)
            page.get_by_role("button", name="Sign in").click()
            page.locator("input[name='sub']").fill(sub)  # the provider's sign-in form
            page.get_by_role("button", name="Authorize").click()
            page.wait_for_url(f"{url}/**")
            expect(page.get_by_text("Signed in as")).to_be_visible()
            pages[sub] = page
        # the operator's admin (named by the provider's subject: no e-mail claim) reads the audit log
        nav = pages["root"].locator("[data-testid='stSidebarNav'] a", has_text="Audit")
        nav.click()
        expect(pages["root"].get_by_role("heading", name="Audit log")).to_be_visible()
        expect(pages["root"].locator("[data-testid='stDataFrame']")).to_be_visible()
        pages["root"].screenshot(path=str(tmp_path / "root-audit.png"), full_page=True)
        assert not pages["alice"].locator("[data-testid='stSidebarNav'] a", has_text="Audit").count()
        for sub, mine, theirs in (("alice", ("harbour.pdf", ALICE_Q), ("orchard.pdf", BOB_Q)),
                                  ("bob", ("orchard.pdf", BOB_Q), ("harbour.pdf", ALICE_Q))):  # fmt: skip
            page = pages[sub]
            expect(page.get_by_text(f"Signed in as {ALICE if sub == 'alice' else BOB}")).to_be_visible()
            page.locator("[data-testid='stSidebarNav'] a", has_text="Library").click()
            expect(page.locator("[data-testid='stMain']")).to_contain_text(mine[0])
            page.screenshot(path=str(tmp_path / f"{sub}-library.png"), full_page=True)
            assert theirs[0] not in page.locator("[data-testid='stMain']").inner_text()
            page.locator("[data-testid='stSidebarNav'] a", has_text="History").click()
            expect(page.locator("[data-testid='stMain']")).to_contain_text(mine[1][:30])
            page.screenshot(path=str(tmp_path / f"{sub}-history.png"), full_page=True)
            assert theirs[1][:30] not in page.locator("[data-testid='stMain']").inner_text()
            assert not page.locator("[data-testid='stException']").count()
        browser.close()
