"""The engine's exceptions. Each message says what is wrong and what the user can do about it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.contracts import LlmUsage


class LoupeError(Exception):
    """Base of every error the engine raises on purpose; ``str(error)`` is shown to the user."""


class DocumentError(LoupeError):
    """A PDF that cannot be ingested (base class)."""


class NotAPdfError(DocumentError):
    """The bytes are not a PDF (wrong type, empty or truncated)."""


class EncryptedPdfError(DocumentError):
    """The PDF needs a password."""


class NoTextLayerError(DocumentError):
    """The PDF has pages but no extractable text (a scan without OCR)."""


class DocumentTooLargeError(DocumentError):
    """The PDF exceeds the configured size or page limit."""


class DocumentNotFoundError(LoupeError):
    """No library entry (or file) with that name or id."""


class LibraryCorruptError(LoupeError):
    """A library entry is damaged and could not be rebuilt."""


class LibraryReadOnlyError(LoupeError):
    """The library folder cannot be written: documents can be read and asked about, not added or removed."""


class BackendError(LoupeError):
    """A network backend failed in a way the caller must see (configuration errors)."""


class EndpointPolicyError(BackendError):
    """The settings may not send this request: the server's key to another endpoint, a visitor's endpoint
    where the operator forbids them, no key at all, or a key an HTTP header cannot carry."""


class BackendUnavailableError(BackendError):
    """The backend may not be used here (for example, network backends are switched off in tests)."""


class PlanValidationError(LoupeError):
    """A plan-and-execute plan is malformed (unknown dependency, cycle, missing placeholder)."""


class BackendStepError(BackendError):
    """A backend could not do one step (endpoint down, a reply still invalid after a corrective retry).

    ``reason`` is safe to record and show (no secrets); ``usage`` is what the failed attempts spent.
    """

    def __init__(self, reason: str, usage: LlmUsage | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.usage = usage


class RunNotFoundError(LoupeError):
    """No saved run with that id (or the id prefix is ambiguous)."""


class HistoryError(LoupeError):
    """The run history cannot be read or written (damaged, newer schema, disk full)."""


class DatabaseError(LoupeError):
    """The PostgreSQL database named by ``LOUPE_DATABASE_URL`` cannot be reached or used."""
