"""The "no network" switch every network backend checks before it is built.

When the environment sets ``LOUPE_NO_NETWORK=1`` (the test suite does), no network backend may be
built, except for an endpoint on the loopback interface inside ``allow_network()`` (tests opt in to
talk to their stub server). Outside that variable everything is allowed unless a caller forbids it
with ``allow_network(False)``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

from engine.errors import BackendUnavailableError

_LOCK = threading.Lock()
_OVERRIDES: list[bool] = []
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _forbidden_by_env() -> bool:
    return os.environ.get("LOUPE_NO_NETWORK", "").strip().lower() in ("1", "true", "yes")


def network_allowed() -> bool:
    """Whether network backends may be used right now (innermost ``allow_network`` wins)."""
    with _LOCK:
        if _OVERRIDES:
            return _OVERRIDES[-1]
    return not _forbidden_by_env()


@contextmanager
def allow_network(flag: bool = True) -> Iterator[None]:
    """Allow (or with ``False`` forbid) network backends inside the block.

    Under ``LOUPE_NO_NETWORK=1`` an opted-in block still only reaches loopback endpoints.
    """
    with _LOCK:
        _OVERRIDES.append(flag)
    try:
        yield
    finally:
        with _LOCK:
            _OVERRIDES.pop()


def is_loopback(base_url: str | None) -> bool:
    """True when ``base_url`` points at this machine (127.0.0.1, localhost, ::1)."""
    if not base_url:
        return False
    host = urlparse(base_url).hostname or ""
    return host.lower() in _LOOPBACK


def ensure_network(base_url: str | None) -> None:
    """Raise ``BackendUnavailableError`` when a network backend for ``base_url`` may not be used here."""
    if not network_allowed():
        raise BackendUnavailableError(
            "network backends are switched off here (LOUPE_NO_NETWORK=1); use the offline backend, "
            "or unset LOUPE_NO_NETWORK to reach an OpenAI-compatible endpoint"
        )
    if _forbidden_by_env() and not is_loopback(base_url):
        raise BackendUnavailableError(
            "with LOUPE_NO_NETWORK=1 only a local endpoint (127.0.0.1 or localhost) may be used; "
            "unset LOUPE_NO_NETWORK to reach a remote endpoint"
        )
