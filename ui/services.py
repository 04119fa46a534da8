"""Engine access for the app: the cached Library, the sample, runs with progress and error messages."""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
from collections.abc import Callable, Sequence

import streamlit as st

import engine
from engine import EngineConfig, LibraryEntry, LoupeError, ProgressEvent, RunResult, escape_inline
from engine.contracts import BBox
from ui import state
from ui.settings import Settings

logger = logging.getLogger(__name__)


def library_path() -> str:
    """The library folder of this process (``$LOUPE_LIBRARY`` or ``uploads/``)."""
    return str(EngineConfig().library.resolved_path())


def library_config() -> EngineConfig:
    """A configuration pointing at this process's library folder (for the stores beside it)."""
    from engine.config import LibraryConfig

    return EngineConfig(library=LibraryConfig(path=library_path()))


@st.cache_resource(show_spinner=False)
def _library(path: str):
    from engine.config import LibraryConfig

    return engine.open_library(EngineConfig(library=LibraryConfig(path=path)))


def library():
    """The shared library of this process: the folder, or the team database LOUPE_DATABASE_URL names
    (it caches parsed indexes by doc_id)."""
    return _library(library_path())


@st.cache_resource(show_spinner="Preparing the sample document...")
def _sample(path: str) -> LibraryEntry:
    return engine.ensure_sample(_library(path))


def sample_entry() -> LibraryEntry | None:
    """The bundled sample's entry (ingested on first start); None when the engine cannot ingest it."""
    try:
        entry = _sample(library_path())
        library().get(entry.doc_id)  # still there? (it may have been deleted on the Library page)
        return entry
    except LoupeError:
        _sample.clear()
        try:
            return _sample(library_path())
        except LoupeError as error:
            st.error(f"The sample document could not be prepared: {escape_inline(str(error))}")
            return None


def entries() -> list[LibraryEntry]:
    try:
        return library().entries()
    except LoupeError as error:
        st.error(escape_inline(str(error)))
        return []


def ingest_upload(data: bytes, file_name: str, progress: Callable[[float, str], None] | None = None) -> LibraryEntry:
    """Add an uploaded PDF to the library (raises LoupeError; the library is unchanged on failure or cancel)."""
    return library().ingest(data, file_name, progress=progress)


@st.cache_resource(show_spinner=False)
def _store(path: str):
    from engine.config import LibraryConfig

    return engine.open_run_store(EngineConfig(library=LibraryConfig(path=path)))


def store():
    """The run history beside this library (saved runs survive a restart)."""
    return _store(library_path())


def run_question(
    question: str, doc_ids: Sequence[str], settings: Settings, progress: Callable[[ProgressEvent], None] | None = None,
    strategy: str | None = None,
) -> RunResult:  # fmt: skip
    """Answer with the sidebar's settings (the caller saves the run: ``save_run``); raises LoupeError with a
    user-facing message."""
    return engine.answer(
        question, list(doc_ids), config=settings.config, strategy=strategy or settings.strategy,
        budget=settings.budget, library=library(), progress=progress,
    )  # fmt: skip


def run_follow_up(
    question: str, previous: RunResult, settings: Settings, progress: Callable[[ProgressEvent], None] | None = None
) -> RunResult:
    """A follow-up of ``previous`` over its documents (the caller saves it: ``save_run``); raises LoupeError with a
    user-facing message."""
    return engine.follow_up(
        question, previous, config=settings.config, strategy=settings.strategy,
        budget=settings.budget, library=library(), progress=progress,
    )  # fmt: skip


def save_run(result: RunResult) -> RunResult:
    """``result`` saved in the run history. When it cannot be (a read-only library, a full disk, a database that
    is down) the answer is kept for this session all the same, without a run id, and a warning says why."""
    try:
        warning = engine.save_run(store(), result)
    except LoupeError as error:  # the history could not even be opened
        warning = f"the run was not saved in the history ({error})"
    if warning is None:
        return result
    state.flash(f"{warning}. The answer is shown, but it is not in the History.", kind="warning")
    return result.model_copy(update={"run_id": ""})


PACKS_KEPT = 8
"""Evidence packs this process keeps (4 runs, PDF and Markdown): a pack is at most a few MB now that its images
are compressed (a 5-page pack is about 1 MB), so the cache holds some tens of MB at most, not 32 uncompressed
packs of 30 MB."""


@st.cache_data(show_spinner=False, max_entries=PACKS_KEPT, ttl=3600)
def pack_bytes(run_id: str, fmt: str, _result: RunResult) -> bytes:
    """The evidence pack of a run as PDF or Markdown (images inline), cached by run id (or, for a run that was not
    saved, a digest of it) and format."""
    pack = engine.build_pack(_result, library().pdf_bytes)
    return pack.pdf() if fmt == "pdf" else pack.markdown(image_dir=None).encode("utf-8")


def pack_data(result: RunResult, fmt: str) -> Callable[[], bytes]:
    """The evidence pack as a download button's deferred data: built on the click, in Streamlit's download
    thread, and cached there. A pack that cannot be built downloads as a short text saying why."""
    key = result.run_id or "unsaved-" + hashlib.sha256(result.model_dump_json().encode()).hexdigest()[:16]
    return functools.partial(_pack_or_reason, key, fmt, result)


def _pack_or_reason(run_id: str, fmt: str, result: RunResult) -> bytes:
    try:
        return pack_bytes(run_id, fmt, result)
    except LoupeError as error:
        return f"The evidence pack could not be built: {error}\n".encode()


Mark = tuple[str, tuple[BBox, ...], str, bool]
"""A page mark as plain data (quote, boxes, role, exact), so the image cache can hash it."""


@st.cache_data(show_spinner=False, max_entries=256)
def page_image(path: str, doc_id: str, page: int, marks: tuple[Mark, ...], dpi: int = 110, crop: bool = False) -> bytes:
    """PNG of one page (or, with ``crop``, of the band around its marks) with the cited passages highlighted."""
    page_marks = [engine.PageMark(quote=quote, boxes=boxes, role=role, exact=exact)  # type: ignore[arg-type]
                  for quote, boxes, role, exact in marks]  # fmt: skip
    return engine.render_page(_library(path).pdf_bytes(doc_id), page, dpi=dpi, marks=page_marks, crop=crop)


def marks_of(result: RunResult, doc_id: str, page: int) -> tuple[Mark, ...]:
    """The citations of ``result`` on one page, as hashable marks."""
    return tuple((m.quote, m.boxes, m.role, m.exact) for m in engine.page_marks(result, doc_id, page))


def report_unexpected(error: Exception, what: str) -> None:
    """Show an unexpected failure as a short message; its type, text and traceback go to the server log only
    (an exception's text can hold server paths or an endpoint's reply). The reference ties the two together."""
    reference = secrets.token_hex(4)
    logger.error("%s failed (reference %s)", what, reference, exc_info=error)
    st.error(f"{escape_inline(what)} failed unexpectedly. The details are in the server log "
             f"(reference {reference}).")  # fmt: skip
