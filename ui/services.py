"""Engine access for the app: the cached Library, the sample, runs with progress and error messages."""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Sequence

import streamlit as st

import engine
from engine import EngineConfig, LibraryEntry, LoupeError, ProgressEvent, RunResult, escape_inline
from engine.contracts import BBox
from ui.access import access_on, current_user
from ui.settings import Settings

logger = logging.getLogger(__name__)


def library_path() -> str:
    """The library folder of this process (``$LOUPE_LIBRARY`` or ``uploads/``)."""
    return str(EngineConfig().library.resolved_path())


def library_config() -> EngineConfig:
    """A configuration pointing at this process's library folder (for the stores beside it)."""
    from engine.config import LibraryConfig

    return EngineConfig(library=LibraryConfig(path=library_path()))


def database_url() -> str:
    """The team database this process uses ("" for the embedded default)."""
    return EngineConfig().library.resolved_database_url()


@st.cache_resource(show_spinner=False)
def _library(path: str, user: str | None = None):
    from engine.config import LibraryConfig

    return engine.open_library(EngineConfig(library=LibraryConfig(path=path, user=user)))


def library():
    """The shared library of this process: the folder, or the team database LOUPE_DATABASE_URL names
    (it caches parsed indexes by doc_id); with access control on, as the signed-in user."""
    return _library(library_path(), current_user())


@st.cache_resource(show_spinner="Preparing the sample document...")
def _sample(path: str) -> LibraryEntry:
    return engine.ensure_sample(_library(path))


def sample_entry() -> LibraryEntry | None:
    """The bundled sample's entry (ingested on first start); None when the engine cannot ingest it."""
    if access_on():  # a team library with access control: documents come from its collections' editors
        return None
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


def ingest_upload(
    data: bytes, file_name: str, progress: Callable[[float, str], None] | None = None, collection: str | None = None
) -> LibraryEntry:
    """Add an uploaded PDF to the library (raises LoupeError; the library is unchanged on failure or cancel);
    with access control on, to ``collection`` (else the user's only collection they may upload to)."""
    if collection is None:
        return library().ingest(data, file_name, progress=progress)
    from engine.config import LibraryConfig

    config = EngineConfig(library=LibraryConfig(path=library_path(), user=current_user(), collection=collection))
    return engine.open_library(config).ingest(data, file_name, progress=progress)


def upload_collections() -> list[str]:
    """With access control on, the collections the signed-in user may upload to (editor or admin); else []."""
    user = current_user()
    if user is None:
        return []
    admin = user in engine.configured_admins()
    found = engine.open_collections(database_url(), user).collections()
    return [c.name for c in found if admin or c.role in ("editor", "admin")]


@st.cache_resource(show_spinner=False)
def _store(path: str, user: str | None = None):
    from engine.config import LibraryConfig

    return engine.open_run_store(EngineConfig(library=LibraryConfig(path=path, user=user)))


def store():
    """The run history beside this library (saved runs survive a restart); as the signed-in user."""
    return _store(library_path(), current_user())


def run_question(
    question: str, doc_ids: Sequence[str], settings: Settings, progress: Callable[[ProgressEvent], None] | None = None,
    strategy: str | None = None, stores: tuple | None = None,
) -> RunResult:  # fmt: skip
    """Answer with the sidebar's settings and save the run; raises LoupeError with a user-facing message.

    ``stores`` is ``(library(), store())`` taken in the script thread when the run goes to a worker thread
    (the signed-in user is only known in the script thread)."""
    lib, runs = stores or (library(), store())
    return engine.answer(
        question, list(doc_ids), config=settings.config, strategy=strategy or settings.strategy,
        budget=settings.budget, library=lib, progress=progress, store=runs,
    )  # fmt: skip


def run_follow_up(
    question: str, previous: RunResult, settings: Settings, progress: Callable[[ProgressEvent], None] | None = None,
    stores: tuple | None = None,
) -> RunResult:  # fmt: skip
    """A follow-up of ``previous`` over its documents, saved; raises LoupeError with a user-facing message."""
    lib, runs = stores or (library(), store())
    return engine.follow_up(
        question, previous, config=settings.config, strategy=settings.strategy,
        budget=settings.budget, library=lib, progress=progress, store=runs,
    )  # fmt: skip


def pack_bytes(run_id: str, fmt: str, result: RunResult) -> bytes:
    """The evidence pack of a run as PDF or Markdown (images inline), cached by run id, format and reader."""
    return _pack_bytes(run_id, fmt, current_user(), result)


@st.cache_data(show_spinner=False, max_entries=32)
def _pack_bytes(run_id: str, fmt: str, user: str | None, _result: RunResult) -> bytes:
    pack = engine.build_pack(_result, _library(library_path(), user).pdf_bytes)
    return pack.pdf() if fmt == "pdf" else pack.markdown(image_dir=None).encode("utf-8")


def pack_data(result: RunResult, fmt: str) -> Callable[[], bytes]:
    """The evidence pack as a download button's deferred data: built on the click, in Streamlit's download
    thread, and cached there. The reader is taken now, in the page's script thread (the download thread
    has no session to ask), so the pack reads the library as the person who sees the button. A pack that
    cannot be built downloads as a short text saying why."""
    return functools.partial(_pack_or_reason, result.run_id, fmt, current_user(), result)


def _pack_or_reason(run_id: str, fmt: str, user: str | None, result: RunResult) -> bytes:
    try:
        return _pack_bytes(run_id, fmt, user, result)
    except LoupeError as error:
        return f"The evidence pack could not be built: {error}\n".encode()


Mark = tuple[str, tuple[BBox, ...], str, bool]
"""A page mark as plain data (quote, boxes, role, exact), so the image cache can hash it."""


def page_image(path: str, doc_id: str, page: int, marks: tuple[Mark, ...], dpi: int = 110, crop: bool = False) -> bytes:
    """PNG of one page (or, with ``crop``, of the band around its marks) with the cited passages highlighted.

    Cached per reader: with access control on, an image is only served to a user the library lets read the page.
    """
    return _page_image(path, current_user(), doc_id, page, marks, dpi, crop)


@st.cache_data(show_spinner=False, max_entries=256)
def _page_image(
    path: str, user: str | None, doc_id: str, page: int, marks: tuple[Mark, ...], dpi: int, crop: bool
) -> bytes:
    page_marks = [engine.PageMark(quote=quote, boxes=boxes, role=role, exact=exact)  # type: ignore[arg-type]
                  for quote, boxes, role, exact in marks]  # fmt: skip
    return engine.render_page(_library(path, user).pdf_bytes(doc_id), page, dpi=dpi, marks=page_marks, crop=crop)


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
