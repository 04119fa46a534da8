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
    result = run_result().model_copy(update={"run_id": "20260101-000000-abcdef"})
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


def test_unsaved_runs_do_not_share_a_cached_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that could not be saved has no run id: its pack is cached under a digest of the run instead, so two
    unsaved runs never get each other's pack."""
    built: list[str] = []
    monkeypatch.setattr(services, "_pack_bytes", lambda run_id, fmt, user, _result: built.append(run_id) or b"pack")
    monkeypatch.setattr(services, "current_user", lambda: "ana")
    first = run_result().model_copy(update={"run_id": ""})
    second = first.model_copy(update={"question": "Another question?"})
    services.pack_data(first, "pdf")()
    services.pack_data(second, "pdf")()
    assert len(set(built)) == 2 and all(key.startswith("unsaved-") for key in built)
