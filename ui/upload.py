"""Uploads on the Ask page: each file read with a progress bar (stage and page count) and a Cancel
button; the uploader is emptied after each batch, so a file deleted from the library can be uploaded
again, and the batch's outcome is shown once (errors do not pile up)."""

from __future__ import annotations

import re
from collections.abc import Callable

import streamlit as st

from engine import LibraryEntry, LoupeError
from ui import safe, services, state

GENERATION = "upload_generation"
READING = "upload_reading"
CANCELLED = "upload_cancelled"
NOTES = "upload_notes"
_PAGE_REPORT = re.compile(r"(?:reading page|(?P<ocr>OCR of page)) (?P<page>\d+) of (?P<total>\d+)")


def _cancel() -> None:
    """Cancel's callback: runs before the rerun that interrupts the ingest at its next progress report."""
    state.ns()[CANCELLED] = state.ns().pop(READING, None) or "the upload"


class MonotonicProgress:
    """A progress bar's value and text that only move forward: pages are read by parallel workers whose
    reports arrive out of order (page 91, then 63, then 57), and a bar that runs backwards reads as a fault.
    The file name is said once, in front; a message that repeats it has it dropped."""

    def __init__(self, file_name: str) -> None:
        self.name = file_name
        self.fraction = 0.0
        self.pages: set[str] = set()

    def update(self, fraction: float, message: str) -> tuple[float, str] | None:
        """The bar's new (value, text), or None when the report is behind what is already shown."""
        fraction = min(max(fraction, 0.0), 1.0)
        if fraction < self.fraction:
            return None
        self.fraction = fraction
        text = " ".join(message.replace(self.name, "").split()).strip(" :") or "reading"
        page = _PAGE_REPORT.fullmatch(text)
        if page:  # "reading page 63 of 160" after page 91: say how many pages are done, which only grows
            self.pages.add(page.group("page"))
            verb = "read by OCR" if page.group("ocr") else "read"
            text = f"{len(self.pages)} of {page.group('total')} pages {verb}"
        return fraction, f"{safe.inline(self.name, 80)}: {safe.inline(text)}"


def _read(file, n: int, on_added: Callable[[LibraryEntry], None], collection: str | None = None) -> tuple[str, str]:
    """Ingest one file with progress; returns (kind, message) for the batch's notes."""
    bar = st.progress(0.0, text=f"{safe.inline(file.name, 80)}: starting")
    st.button("Cancel", key=f"loupe_upload_cancel_{state.ns().get(GENERATION, 0)}_{n}", on_click=_cancel,
              help="Stop reading this file; nothing is added to the library.")  # fmt: skip
    state.ns()[READING] = file.name

    shown = MonotonicProgress(file.name)

    def progress(fraction: float, message: str) -> None:
        update = shown.update(fraction, message)
        if update is not None:
            bar.progress(update[0], text=update[1])

    try:
        entry = services.ingest_upload(file.getvalue(), file.name, progress=progress, collection=collection)
    except LoupeError as error:
        return "error", f"{file.name}: {error}"
    finally:
        state.ns().pop(READING, None)
    on_added(entry)
    return "ok", f"Added {entry.file_name} ({entry.total_pages} pages)"


def uploads(on_added: Callable[[LibraryEntry], None]) -> None:
    """The uploader, its progress while files are read, and the last batch's outcome."""
    ns = state.ns()
    generation = ns.setdefault(GENERATION, 0)
    collection = _collection()
    files = st.file_uploader("Upload PDFs", type=["pdf"], accept_multiple_files=True, key=f"loupe_upload_{generation}",
                             help="PDFs with a text layer; scans need OCR first.")  # fmt: skip
    cancelled = ns.pop(CANCELLED, None)
    if cancelled:
        ns[NOTES] = [("warning", f"Cancelled reading {cancelled}; nothing was added. Upload it again to retry.")]
        ns[GENERATION] = generation + 1
        st.rerun()
    if files:
        notes = []
        for n, file in enumerate(files):
            try:
                notes.append(_read(file, n, on_added, collection))
            except Exception as error:
                services.report_unexpected(error, f"Reading {file.name}")
                notes.append(("error", f"{file.name}: reading failed unexpectedly ({type(error).__name__})"))
        ns[NOTES] = notes
        ns[GENERATION] = generation + 1
        st.rerun()
    _show_notes(ns.get(NOTES, []))
    ns[NOTES] = [(kind, message) for kind, message in ns.get(NOTES, []) if kind != "ok"]  # successes show once


def _show_notes(notes: list[tuple[str, str]]) -> None:
    """The last batch's outcome: one message per kind, one line per file."""
    for kind, show in (("error", st.error), ("warning", st.warning), ("ok", st.success)):
        lines = [safe.inline(message) for k, message in notes if k == kind]
        if lines:
            show("  \n".join(lines))


def _collection() -> str | None:
    """With access control on and several collections the user may upload to, the one they pick."""
    try:
        names = services.upload_collections()
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return None
    if len(names) < 2:
        return None  # none (uploads are refused with a message) or exactly one (the library picks it)
    return st.selectbox("Upload to collection", names, key="loupe_upload_collection")
