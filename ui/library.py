"""The Library page: documents, their profiles and outlines; delete with confirmation."""

from __future__ import annotations

from functools import partial

import streamlit as st

import engine
from engine import LibraryEntry, LoupeError, TocEntry
from ui import safe, services, state


def entry_rows(entries: list[LibraryEntry]) -> list[dict[str, object]]:
    """One row per document; its state (ready, or which search index is still building) comes right after
    its name, so it shows without scrolling the table sideways."""
    return [
        {
            "document": e.file_name,
            "state": "building: " + ", ".join(e.building) if e.building else "ready",
            "pages": e.total_pages,
            "outline entries": e.profile.toc_entries,
            "scanned?": "yes" if e.profile.is_likely_scanned else "no",
            "OCR pages": len(e.profile.ocr_pages),
            "tables?": "yes" if e.profile.has_tables else "no",
            "suggested approach": engine.strategy_label(e.profile.suggested_strategy),
            "size (KB)": round(e.size_bytes / 1024, 1),
            "added": e.added_at[:19].replace("T", " "),
            "id": e.doc_id[:12],
        }
        for e in entries
    ]


def shown_outline(entry: LibraryEntry, toc: tuple[TocEntry, ...], source: str) -> tuple[tuple[TocEntry, ...], str]:
    """The outline worth showing and its heading: the document's own, or one inferred from its headings only
    when the profile found it usable (a few cover-page lines are not an outline)."""
    if not toc:
        return (), "Outline"
    if source == "headings":
        if not entry.profile.has_usable_toc:
            return (), "Outline"
        return toc, "Outline (inferred from the headings)"
    return toc, "Outline"


def outline_markdown(toc: tuple[TocEntry, ...]) -> str:
    """The outline as an indented markdown list with page ranges."""
    lines = []
    for t in toc:
        pages = f"p{t.start_page}" if t.start_page == t.end_page else f"pp{t.start_page}-{t.end_page}"
        lines.append("    " * (max(t.level, 1) - 1) + f"- {safe.inline(t.title)} ({pages})")
    return "\n".join(lines)


def _ask_delete(doc_id: str) -> None:
    state.ns()["confirm_delete"] = doc_id


def _cancel_delete() -> None:
    state.ns().pop("confirm_delete", None)


def _delete(entry: LibraryEntry) -> None:
    """Yes-button callback: delete, drop the document from the Ask selection, confirm on the next run."""
    try:
        services.library().delete(entry.doc_id)
    except LoupeError as error:
        state.flash(f"{entry.file_name} could not be deleted: {error}", "error")
    else:
        docs = [d for d in (state.value("docs") or []) if d != entry.doc_id]
        state.ns()["values"]["docs"] = docs
        st.session_state.pop(state.wkey("docs"), None)
        st.session_state.pop("loupe_library_doc", None)
        state.flash(f"Deleted {entry.file_name} from the library.")
    _cancel_delete()


def _delete_controls(entry: LibraryEntry) -> None:
    """The delete button beside the document picker, and its confirmation."""
    if state.ns().get("confirm_delete") == entry.doc_id:
        st.warning(f"Delete **{safe.inline(entry.file_name)}** from the library? This cannot be undone.")
        yes, no, _ = st.columns([1, 1, 3])
        yes.button("Yes, delete it", type="primary", key="loupe_delete_yes", on_click=_delete, args=(entry,))
        no.button("Cancel", key="loupe_delete_no", on_click=_cancel_delete)
    else:
        st.button("Delete this document", key="loupe_delete", on_click=_ask_delete, args=(entry.doc_id,),
                  icon=":material/delete:")  # fmt: skip


def _details(entry: LibraryEntry) -> None:
    p = entry.profile
    try:
        parsed = services.library().parsed(entry.doc_id)
        toc, title = shown_outline(entry, parsed.toc, parsed.toc_source)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        toc, title = (), "Outline"
    cols = st.columns(4)
    cols[0].metric("Pages", p.total_pages)
    cols[1].metric("Outline entries", len(toc))
    cols[2].metric("Scanned?", "yes" if p.is_likely_scanned else "no")
    cols[3].metric("Tables?", "yes" if p.has_tables else "no")
    st.subheader(title)
    st.markdown(outline_markdown(toc) if toc else "_This document has no outline._")


def page() -> None:
    st.title("Library")
    st.write("The documents Loupe has read, with the profile the dispatcher uses and the outline tree.")
    for kind, message in state.pop_flashes():
        (st.error if kind == "error" else st.success)(safe.inline(message))
    services.sample_entry()
    entries = services.entries()
    if not entries:
        st.info("The library is empty. Upload a PDF on the Ask page.")
        return
    building = [e.file_name for e in entries if e.building]
    if building:
        st.info("Still building search indexes: " + ", ".join(safe.inline(n) for n in building)
                + ". They can be asked already; searches get better when the building is done.")  # fmt: skip
    st.dataframe(entry_rows(entries), hide_index=True)
    names = {e.doc_id: e for e in entries}
    chosen = st.selectbox(
        "Document",
        list(names),
        format_func=partial(state.label_of, {d: e.file_name for d, e in names.items()}),
        key="loupe_library_doc",
    )
    if chosen in names:
        _delete_controls(names[chosen])
        _details(names[chosen])
