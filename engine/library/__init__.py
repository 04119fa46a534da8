"""The document library: the local folder (embedded default) or a team database, the loaded documents
and their indexes, and the bounded parse worker. ``open_library(config)`` picks the kind."""

from __future__ import annotations

from engine.library.registry import LIBRARIES, CorpusSearch, DocumentLibrary, ingest, open_library, store_kind

__all__ = ["LIBRARIES", "CorpusSearch", "DocumentLibrary", "ingest", "open_library", "store_kind"]
