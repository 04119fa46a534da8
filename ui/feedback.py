"""Marking a run's cited pages right or wrong: the question and its right pages go to the personal
question set in the library, which the Evaluate page runs as a regression check."""

from __future__ import annotations

import re

import streamlit as st

import engine
from engine import LoupeError, RunResult
from ui import safe, services


def parse_pages(text: str) -> list[int]:
    """Page numbers typed by a person: "12, 14-16 20" -> [12, 14, 15, 16, 20]; ValueError on anything else."""
    pages: list[int] = []
    for token in re.split(r"[,\s;]+", text.strip()):
        if not token:
            continue
        match = re.fullmatch(r"(\d{1,5})(?:-(\d{1,5}))?", token)
        if match is None:
            raise ValueError(f"{token!r} is not a page number; type numbers like 12, 14-16")
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if last < first or last - first > 50:
            raise ValueError(f"{token!r} is not a usable page range")
        pages.extend(range(first, last + 1))
    return list(dict.fromkeys(pages))


def mark_pages(result: RunResult, key: str) -> None:
    """A form: tick the cited pages that hold the answer, add the ones that were missed, save."""
    st.markdown("**Were the cited pages right?** Tick the pages that hold the answer and add any that were "
                "missed; the question joins your question set, which the Evaluate page runs.")  # fmt: skip
    with st.form(f"{key}_mark", border=True):
        right = [
            st.checkbox(f"{safe.inline(ref.file_name, 60)} · page {ref.page}", key=f"{key}_right_{n}")
            for n, ref in enumerate(result.evidence_pages)
        ]
        names = {d.doc_id: d.file_name for d in result.docs}
        doc = result.docs[0].doc_id
        if len(names) > 1:
            doc = st.selectbox("Document of the added pages", list(names), format_func=names.__getitem__,
                               key=f"{key}_doc")  # fmt: skip
        extra = st.text_input("Other pages that hold the answer", key=f"{key}_extra", placeholder="e.g. 12, 14-16")
        gold = st.text_input("The correct answer (optional)", key=f"{key}_answer")
        saved = st.form_submit_button("Add to my question set")
    if not saved:
        return
    try:
        pages = [(ref.doc_id, ref.page) for ref, ok in zip(result.evidence_pages, right, strict=True) if ok]
        pages += [(doc, page) for page in parse_pages(extra)]
        engine.add_personal_question(result, pages, gold or None, config=services.library_config())
    except (LoupeError, ValueError) as error:
        st.error(safe.inline(str(error)))
        return
    count = engine.personal_set_size(services.library_config())
    st.success(f"Saved: your question set now holds {count} question(s). Run it on the Evaluate page.")
