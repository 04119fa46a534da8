"""The engine's exceptions. Each message says what is wrong and what the user can do about it."""

from __future__ import annotations


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


class BackendUnavailableError(BackendError):
    """The backend may not be used here (for example, network backends are switched off in tests)."""


class PlanValidationError(LoupeError):
    """A plan-and-execute plan is malformed (unknown dependency, cycle, missing placeholder)."""
