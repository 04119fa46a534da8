"""The offline backend: deterministic rules over cue words and document conventions (no network, no model).

``OfflineBackend`` implements ``engine.contracts.Backend``. Its helpers (question parsing and focus,
comparison sides, the domain glossary, plans, extractive answers, vocabulary discovery) and their word
lists (``lexicon``) are private to it.
"""

from __future__ import annotations

from engine.llm.offline.backend import OfflineBackend

__all__ = ["OfflineBackend"]
