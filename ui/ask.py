"""The Ask page: upload or pick documents, ask (or pick a suggested question), see why the answer is what it is."""

from __future__ import annotations

import hashlib
from functools import partial

import streamlit as st

from engine import MAX_QUESTION_CHARS, SAMPLE_QUESTIONS, LoupeError, ProgressEvent, RunResult, escape_markdown
from ui import services, state, views
from ui.settings import Settings

QUESTION = "question"
DOCS = "docs"


def _uploads() -> None:
    files = st.file_uploader("Upload PDFs", type=["pdf"], accept_multiple_files=True,
                             help="PDFs with a text layer; scans need OCR first.")  # fmt: skip
    done: dict[str, str] = state.ns()["ingested"]
    for file in files or []:
        data = file.getvalue()
        digest = hashlib.sha256(data).hexdigest()
        if digest in done:
            if done[digest].startswith("error:"):
                st.error(escape_markdown(f"{file.name}: {done[digest].removeprefix('error:')}"))
            continue
        try:
            with st.spinner(f"Reading {escape_markdown(file.name)}..."):
                entry = services.ingest_upload(data, file.name)
        except LoupeError as error:
            done[digest] = "error:" + str(error)
            st.error(escape_markdown(f"{file.name}: {error}"))
            continue
        except Exception as error:
            services.report_unexpected(error, f"Reading {file.name}")
            continue
        done[digest] = entry.doc_id
        selected = list(state.current(DOCS) or [])
        sample = services.sample_entry()
        if sample and selected == [sample.doc_id]:  # the untouched first-visit choice gives way to the upload
            selected = []
        if entry.doc_id not in selected:
            state.set_value(DOCS, [*selected, entry.doc_id])
        st.toast(f"Added {escape_markdown(file.name)} ({entry.total_pages} pages)")


def _documents() -> list[str]:
    sample = services.sample_entry()
    entries = services.entries()
    names = {e.doc_id: e.file_name for e in entries}
    labels = {d: n + ("  (sample)" if sample and d == sample.doc_id else "") for d, n in names.items()}
    chosen_before = state.current(DOCS)
    if chosen_before is None:  # first visit: the sample is preselected
        chosen_before = [sample.doc_id] if sample else []
    current = [d for d in chosen_before if d in names]
    state.set_value(DOCS, current)
    chosen = st.multiselect("Documents", list(names), key=state.prime(DOCS, current),
                            format_func=partial(state.label_of, labels),
                            placeholder="Pick documents from the library")  # fmt: skip
    state.bind(DOCS)
    return list(chosen)


def _suggest(question: str) -> None:
    state.set_value(QUESTION, question)
    state.ns()["pending"] = question


def _suggestions(doc_ids: list[str]) -> None:
    sample = services.sample_entry()
    if not sample or sample.doc_id not in doc_ids:
        return
    st.caption("Try a question about the sample note:")
    cells = st.columns(len(SAMPLE_QUESTIONS))
    for n, (cell, question) in enumerate(zip(cells, SAMPLE_QUESTIONS, strict=True)):
        cell.button(question, key=f"loupe_suggest_{n}", on_click=_suggest, args=(question,), width="stretch")


def _question_form() -> str | None:
    with st.form("loupe_ask_form", border=False):
        col_q, col_b = st.columns([6, 1], vertical_alignment="bottom")
        question = col_q.text_input("Question", key=state.prime(QUESTION, ""), max_chars=MAX_QUESTION_CHARS,
                                    placeholder="e.g. What does Table 3 report for ...?")  # fmt: skip
        asked = col_b.form_submit_button("Ask", type="primary", width="stretch")
    state.bind(QUESTION)
    pending = state.ns().pop("pending", None)
    if pending:
        return pending
    return question if asked else None


def ask(question: str, doc_ids: list[str], settings: Settings, strategy: str | None = None) -> RunResult | None:
    """Run one question with an ``st.status`` progress box; errors become messages. Stores the run."""
    with st.status(f"Answering: {escape_markdown(question[:200])}", expanded=False) as status:

        def progress(event: ProgressEvent) -> None:
            label = escape_markdown(f"{event.stage}: {event.message}")
            status.update(label=label)
            status.write(label)

        try:
            result = services.run_question(question, doc_ids, settings, progress=progress, strategy=strategy)
        except LoupeError as error:
            status.update(label="The question could not be answered", state="error")
            st.error(escape_markdown(str(error)))
            return None
        except Exception as error:
            status.update(label="The question could not be answered", state="error")
            services.report_unexpected(error, "Answering")
            return None
        status.update(label=f"Done: {result.strategy_effective}, stopped on {result.stop_reason} "
                            f"({result.usage.latency_ms / 1000:.1f} s)", state="complete")  # fmt: skip
    state.add_run(result)
    return result


def page(settings: Settings) -> None:
    st.title("Loupe")
    st.write("Ask hard questions of PDFs and see **why** the answer is what it is: which patterns fired, "
             "what each pass did, and the cited lines on the page.")  # fmt: skip
    _uploads()
    doc_ids = _documents()
    _suggestions(doc_ids)
    question = _question_form()
    if question is not None:
        if not question.strip():
            st.error("The question is empty; type a question first.")
        elif len(question) >= MAX_QUESTION_CHARS:  # the box cuts longer text off at the limit
            st.error(f"The question reached the {MAX_QUESTION_CHARS:,}-character limit, so any longer text was cut "
                     "off; ask it in fewer words, or split it into several questions.")  # fmt: skip
        elif not doc_ids:
            st.error("No document selected; upload a PDF or pick one from the library.")
        else:
            ask(question, doc_ids, settings)
    result = state.latest_run()
    if result is not None:
        st.divider()
        st.markdown(f"#### {escape_markdown(result.question)}")
        views.show_run(result, key="ask")
