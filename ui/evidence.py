"""Readable evidence: each cited page opens on a crop around its cited lines; the full page (with
previous/next paging through the document) is one click away."""

from __future__ import annotations

import re

import streamlit as st

from engine import LoupeError, PageRef, RunResult
from ui import safe, services

CROP_DPI = 150
"""Crops are rendered at 150 dpi and shown at their own size: 10-point text is about 21 pixels high."""
FULL_DPI = 120
SCROLL_MARGIN = "4.5rem"
"""Room kept above a card when a citation link scrolls to it: Streamlit's fixed header is 3.75rem tall, so
without it the card's title lands under the header."""


def anchor(doc_id: str, page: int, run_id: str = "") -> str:
    """The HTML id of an evidence page card (citations link to it); only hex, digits and dashes."""
    run = re.sub(r"[^0-9a-f]", "", run_id[-6:].lower())
    return f"evidence-{run}-{re.sub(r'[^0-9a-f]', '', doc_id[:10].lower())}-p{int(page)}"


def page_caption(ref: PageRef, added_in: int | None, supporting: bool = False, ocr: bool = False) -> str:
    """Plain text (escape it before rendering as Markdown)."""
    caption = f"{ref.file_name} · page {ref.page}"
    if ocr:
        caption += " · read by OCR"
    if supporting:
        caption += " · supporting passage"
    if added_in:
        caption += f" · added in pass {added_in}"
    return caption


def _supporting_pages(result: RunResult) -> set[tuple[str, int]]:
    """Pages cited only by supporting passages."""
    answer = {(c.doc_id, c.page) for c in result.answer.citations if c.role == "answer"}
    return {(c.doc_id, c.page) for c in result.answer.citations if c.role == "support"} - answer


def _total_pages(result: RunResult, doc_id: str) -> int:
    return next((p.total_pages for p in result.profiles if p.doc_id == doc_id), 1)


def _step(key: str, delta: int, last: int) -> None:
    st.session_state[key] = min(max(1, st.session_state[key] + delta), last)


def _full_page(result: RunResult, ref: PageRef, key: str) -> None:
    """The whole page, with previous/next paging through the document (cited marks where they are)."""
    last = _total_pages(result, ref.doc_id)
    page_key = f"{key}_page"
    if page_key not in st.session_state:
        st.session_state[page_key] = ref.page
    shown = st.session_state[page_key]
    back, where, forward = st.columns([1, 3, 1], vertical_alignment="center")
    back.button("◀ Previous page", key=f"{key}_prev", disabled=shown <= 1, on_click=_step,
                args=(page_key, -1, last), width="stretch")  # fmt: skip
    where.caption(f"page {shown} of {last}" + ("" if shown == ref.page else f" (cited page: {ref.page})"))
    forward.button("Next page ▶", key=f"{key}_next", disabled=shown >= last, on_click=_step,
                   args=(page_key, 1, last), width="stretch")  # fmt: skip
    png = services.page_image(services.library_path(), ref.doc_id, shown, services.marks_of(result, ref.doc_id, shown),
                              dpi=FULL_DPI)  # fmt: skip
    st.image(png, width="stretch")


def _card(result: RunResult, n: int, ref: PageRef, key: str, supporting: bool) -> None:
    added = result.page_added_in[n] if n < len(result.page_added_in) else None
    st.markdown(f'<div id="{anchor(ref.doc_id, ref.page, result.run_id)}" style="scroll-margin-top: {SCROLL_MARGIN}"></div>',
                unsafe_allow_html=True)  # fmt: skip
    head, toggle = st.columns([4, 1], vertical_alignment="center")
    ocr = any(ref.page in p.ocr_pages for p in result.profiles if p.doc_id == ref.doc_id)
    head.markdown(f"**{safe.inline(page_caption(ref, added, supporting, ocr))}**")
    full = toggle.toggle("Full page", key=f"{key}_full", help="The whole page, with paging through the document")
    try:
        if full:
            _full_page(result, ref, key)
        else:
            marks = services.marks_of(result, ref.doc_id, ref.page)
            png = services.page_image(services.library_path(), ref.doc_id, ref.page, marks, dpi=CROP_DPI, crop=True)
            st.image(png, width="content")
    except LoupeError as error:
        st.error(f"{safe.inline(ref.file_name)} page {ref.page}: {safe.inline(str(error))}")
    except Exception as error:  # a page MuPDF chokes on must not take the whole answer down
        services.report_unexpected(error, f"Drawing {ref.file_name} page {ref.page}")


def show_evidence(result: RunResult, key: str = "evidence") -> None:
    """One card per evidence page, in citation order; citations link to the cards."""
    st.subheader("Evidence pages")
    if not result.evidence_pages:
        st.info("No page was cited.")
        return
    st.caption("Each page opens on its cited lines: the answer's in amber, supporting passages in blue. "
               "“Full page” shows the whole page and pages through the document.")  # fmt: skip
    supporting = _supporting_pages(result)
    for n, ref in enumerate(result.evidence_pages):
        with st.container(border=True):
            _card(result, n, ref, f"{key}_{n}", (ref.doc_id, ref.page) in supporting)
