"""Evidence packs are built when their download button is clicked, not each time a page is drawn, and as
the reader who saw the button."""

from __future__ import annotations

import pytest

from engine import LoupeError
from tests.app.factories import run_result
from ui import services


def test_the_pack_is_built_only_when_the_data_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[tuple[str, str, str | None]] = []

    def fake_pack(run_id: str, fmt: str, user: str | None, _result) -> bytes:
        built.append((run_id, fmt, user))
        return b"%PDF-pack"

    monkeypatch.setattr(services, "_pack_bytes", fake_pack)
    monkeypatch.setattr(services, "current_user", lambda: "ana")
    result = run_result()
    data = services.pack_data(result, "pdf")
    assert built == []  # drawing the button builds nothing
    monkeypatch.setattr(services, "current_user", lambda: None)  # the download thread has no session
    assert data() == b"%PDF-pack"
    assert built == [(result.run_id, "pdf", "ana")]  # built as the reader who saw the button


def test_a_pack_that_cannot_be_built_downloads_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(run_id: str, fmt: str, user: str | None, _result) -> bytes:
        raise LoupeError("the document was deleted from the library")

    monkeypatch.setattr(services, "_pack_bytes", failing)
    monkeypatch.setattr(services, "current_user", lambda: None)
    assert b"deleted from the library" in services.pack_data(run_result(), "md")()
