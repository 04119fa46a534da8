"""The Ask page: a conversation over PDFs. Each turn keeps its activation column, narration and
evidence (earlier turns collapsed); a question asked after a turn is a follow-up over its documents."""

from __future__ import annotations

from functools import partial

import streamlit as st

import engine
from engine import MAX_QUESTION_CHARS, SAMPLE_QUESTIONS, LibraryEntry, LoupeError, ProgressEvent, RunResult
from ui import evidence, feedback, pack, safe, services, state, views
from ui.settings import Settings
from ui.streaming import run_streaming
from ui.upload import uploads

DOCS = "docs"
PENDING = "pending"
STATUS_CHARS = 80
"""Characters of the question in the progress box's label."""


def _added(entry: LibraryEntry) -> None:
    """A new upload joins the selection (the untouched first-visit sample choice gives way to it)."""
    selected = list(state.current(DOCS) or [])
    sample = services.sample_entry()
    if sample and selected == [sample.doc_id]:
        selected = []
    if entry.doc_id not in selected:
        state.set_value(DOCS, [*selected, entry.doc_id])


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
    state.ns()[PENDING] = question


def _suggestions(doc_ids: list[str]) -> None:
    sample = services.sample_entry()
    if not sample or sample.doc_id not in doc_ids:
        return
    st.caption("Try a question about the sample note:")
    cells = st.columns(len(SAMPLE_QUESTIONS))
    for n, (cell, question) in enumerate(zip(cells, SAMPLE_QUESTIONS, strict=True)):
        cell.button(
            question, key=f"loupe_suggest_{n}", on_click=_suggest, args=(question,), width="stretch", help=question
        )  # a long question is cut with "…" in a narrow button: the whole of it on hover


def _new_conversation() -> None:
    state.set_conversation([])


def ask(question: str, doc_ids: list[str], settings: Settings, strategy: str | None = None,
        previous: RunResult | None = None) -> RunResult | None:  # fmt: skip
    """Run one question (a follow-up of ``previous`` when given) in an ``st.status`` box; errors become
    messages. The run is saved in the history and kept in the session. With the openai backend the
    model's draft answer streams above the box as it is written."""
    draft = st.container() if settings.config.backend.kind == "openai" else None
    label = safe.inline(question, STATUS_CHARS)
    with st.status(f"Answering: {label}", expanded=False) as status:

        def progress(event: ProgressEvent) -> None:
            text = safe.inline(engine.progress_label(event), 160)
            status.update(label=text)
            status.write(text)

        try:
            stores = services.library(), services.store()  # in the script thread (the signed-in user), not the worker
            if previous is not None:
                run = partial(services.run_follow_up, question, previous, settings, stores=stores)
            else:
                run = partial(services.run_question, question, doc_ids, settings, strategy=strategy, stores=stores)
            if draft is not None:
                result = run_streaming(lambda report: run(progress=report), progress, draft)
            else:
                result = run(progress=progress)
        except LoupeError as error:
            status.update(label="The question could not be answered", state="error")
            st.error(safe.inline(str(error)))
            return None
        except Exception as error:
            status.update(label="The question could not be answered", state="error")
            services.report_unexpected(error, "Answering")
            return None
        status.update(label=f"Answered in {result.usage.latency_ms / 1000:.1f} s "
                            f"({engine.strategy_label(result.strategy_effective).lower()}): "
                            f"{views.stop_sentence(result)}", state="complete")  # fmt: skip
    state.add_run(result)
    return result


def echo_question(question: str) -> None:
    """The user's question: shortened when long, the whole text one click away."""
    st.markdown(safe.inline(question, safe.QUESTION_ECHO_CHARS))
    if len(question) > safe.QUESTION_ECHO_CHARS:
        with st.expander("The whole question"):
            st.text(question)


def _turn(result: RunResult, n: int, latest: bool) -> None:
    key = f"turn_{n}"
    with st.chat_message("user"):
        echo_question(result.asked or result.question)
    with st.chat_message("assistant"):
        if result.asked and result.asked != result.question:
            st.caption(f"Understood as: {safe.inline(result.question, 400)}")
        if latest:
            _details(result, key)
            return
        views.show_answer(result)
        with st.expander("How it was answered, and the evidence"):
            _details(result, key, answer=False)


def _details(result: RunResult, key: str, answer: bool = True) -> None:
    left, right = st.columns([2, 3], gap="large")
    with left:
        views.show_activations(result)
        views.show_stop(result)
        views.show_usage(result, key=f"{key}_usage")
        views.details(result, nested=not answer)
    with right:
        if answer:
            views.show_answer(result)
        views.show_narration(result)
        pack.download_buttons(result, key=f"{key}_pack")
    evidence.show_evidence(result, key=f"{key}_ev")
    with st.container(border=False):
        feedback.mark_pages(result, key=f"{key}_mark")


def _conversation_docs(turns: list[RunResult]) -> list[str]:
    return [d.doc_id for d in turns[-1].docs] if turns else []


def page(settings: Settings) -> None:
    st.title("Ask")
    st.write("Ask hard questions of PDFs and see **why** the answer is what it is: which patterns fired, "
             "what each pass did, and the cited lines on the page. Ask follow-ups in the same conversation.")  # fmt: skip
    with st.spinner("Preparing the sample document…"):
        services.sample_entry()  # before the uploader is drawn: a file chosen during this wait would be lost
    uploads(_added)
    doc_ids = _documents()
    turns = state.conversation()
    following = bool(turns) and sorted(_conversation_docs(turns)) == sorted(doc_ids)
    if turns:
        note, button = st.columns([4, 1], vertical_alignment="center")
        note.caption("Follow-ups ask the conversation's documents; changing the selection starts a new conversation."
                     if following else "The selection changed: the next question starts a new conversation.")  # fmt: skip
        button.button("New conversation", key="loupe_new_conversation", on_click=_new_conversation, width="stretch")
    _suggestions(doc_ids)
    for n, result in enumerate(turns):
        _turn(result, n, latest=n == len(turns) - 1)
    typed = st.chat_input("Ask a follow-up…" if following else "Ask a question about the selected documents…",
                          key="loupe_chat", max_chars=MAX_QUESTION_CHARS)  # fmt: skip
    question = state.ns().pop(PENDING, None) or typed
    if question is None:
        return
    if not question.strip():
        st.error("The question is empty; type a question first.")
        return
    if len(question) >= MAX_QUESTION_CHARS:  # the box cuts longer text off at the limit
        st.error(f"The question reached the {MAX_QUESTION_CHARS:,}-character limit, so any longer text was cut "
                 "off; ask it in fewer words, or split it into several questions.")  # fmt: skip
        return
    if not doc_ids:
        st.error("No document selected; upload a PDF or pick one from the library.")
        return
    if turns and not following:
        state.set_conversation([])
    with st.chat_message("user"):
        echo_question(question)
    with st.chat_message("assistant"):
        fresh = ask(question, doc_ids, settings, previous=turns[-1] if following else None)
    if fresh is not None:
        state.add_turn(fresh)
        st.rerun()
