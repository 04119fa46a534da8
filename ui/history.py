"""The History page: every saved run (it survives a restart). Search, reopen (also as a conversation
on the Ask page), re-run with another strategy, compare two runs, download the evidence pack, delete."""

from __future__ import annotations

from functools import partial

import streamlit as st

from engine import MAX_SEARCH_CHARS, LoupeError, RunResult, RunSummary
from ui import feedback, pack, safe, services, state, views
from ui.ask import ask
from ui.settings import STRATEGIES, Settings

LIST_LIMIT = 200
CONFIRM = "history_confirm_delete"
SELECTED = "history_selected"


def summary_rows(rows: list[RunSummary]) -> list[dict[str, object]]:
    """The history table: one row per run, newest first."""
    return [
        {
            "asked": r.created_at[:19].replace("T", " "),
            "question": ("↳ " if r.follow_up_of else "") + r.question,
            "answer": r.answer_excerpt,
            "strategy": r.strategy,
            "documents": ", ".join(r.documents),
            "run": r.run_id,
        }
        for r in rows
    ]


def run_label(row: RunSummary) -> str:
    """Plain text for a select box (Streamlit shows option labels as text)."""
    return f"{row.created_at[:16].replace('T', ' ')} · {safe.clip(row.question, 80)} · {row.strategy}"


def compare_rows(a: RunResult, b: RunResult) -> list[dict[str, object]]:
    """Two runs side by side, one row per aspect."""

    def facts(r: RunResult) -> dict[str, str]:
        return {
            "question": r.question,
            "strategy": f"{r.strategy_effective} (asked {r.strategy_requested})",
            "backend": r.backend,
            "answer": r.answer.text,
            "evidence pages": ", ".join(f"{p.file_name} p{p.page}" for p in r.evidence_pages) or "none",
            "patterns on": ", ".join(name for name, d in r.activations.items() if d.on),
            "passes": str(len(r.history)),
            "stop reason": r.stop_reason + (" (budget exhausted)" if r.exhausted else ""),
            "confidence": f"{r.answer.confidence:.2f}",
            "LLM calls": str(r.usage.llm_calls),
            "retrieval calls": str(r.usage.retrieval_calls),
            "context tokens": str(r.usage.context_tokens),
            "seconds": f"{r.usage.latency_ms / 1000:.2f}",
        }

    left, right = facts(a), facts(b)
    return [{"aspect": k, "first run": left[k], "second run": right[k], "same": left[k] == right[k]} for k in left]


def thread_of(result: RunResult) -> list[RunResult]:
    """The conversation a run ends: its follow-up chain back to the first question, oldest first."""
    chain = [result]
    seen = {result.run_id}
    while chain[0].follow_up_of and chain[0].follow_up_of not in seen and len(chain) < 50:
        try:
            earlier = services.store().get(chain[0].follow_up_of)
        except LoupeError:
            break  # an earlier turn was deleted: the thread starts here
        seen.add(earlier.run_id)
        chain.insert(0, earlier)
    return chain


def _continue_on_ask(result: RunResult) -> None:
    state.set_conversation(thread_of(result))
    state.set_value("docs", [d.doc_id for d in result.docs])


def _ask_delete(run_id: str) -> None:
    state.ns()[CONFIRM] = run_id


def _cancel_delete() -> None:
    state.ns().pop(CONFIRM, None)


def _delete(run_id: str) -> None:
    try:
        services.store().delete(run_id)
    except LoupeError as error:
        state.flash(str(error), "error")
    else:
        state.flash(f"Deleted run {run_id}.")
    state.ns().pop(CONFIRM, None)
    state.ns().pop(SELECTED, None)


def _actions(result: RunResult, settings: Settings) -> None:
    cols = st.columns([2, 2, 1, 2], vertical_alignment="bottom")
    if cols[0].button("Continue this conversation on Ask", key="loupe_history_continue", width="stretch"):
        _continue_on_ask(result)
        st.switch_page("pages/0_Ask.py")
    others = [s for s in STRATEGIES if s != result.strategy_requested]
    strategy = cols[1].selectbox("Re-run with strategy", others, key="loupe_history_strategy")
    if cols[2].button("Re-run", key="loupe_history_rerun", width="stretch"):
        fresh = ask(result.question, [d.doc_id for d in result.docs], settings, strategy=strategy)
        if fresh is not None:
            state.ns()[SELECTED] = fresh.run_id
            if fresh.run_id:  # an unsaved run has no id (services.save_run left a warning instead)
                state.flash(f"Re-ran with {strategy}: run {fresh.run_id}.")
            st.rerun()
    if state.ns().get(CONFIRM) == result.run_id:
        cols[3].warning("Delete this run from the history? This cannot be undone.")
        yes, no = st.columns(2)
        yes.button("Yes, delete it", type="primary", key="loupe_history_delete_yes", on_click=_delete,
                   args=(result.run_id,))  # fmt: skip
        no.button("Cancel", key="loupe_history_delete_no", on_click=_cancel_delete)
    else:
        cols[3].button("Delete this run", key="loupe_history_delete", on_click=_ask_delete, args=(result.run_id,),
                       width="stretch")  # fmt: skip


def _open(rows: list[RunSummary], settings: Settings) -> None:
    ids = [r.run_id for r in rows]
    labels = {r.run_id: run_label(r) for r in rows}
    wanted = state.ns().get(SELECTED)
    if wanted in ids:
        st.session_state["loupe_history_run"] = wanted
    chosen = st.selectbox("Open a run", ids, format_func=partial(state.label_of, labels), key="loupe_history_run")
    if chosen is None:
        return
    state.ns()[SELECTED] = chosen
    try:
        result = services.store().get(chosen)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return
    st.markdown(f"#### {safe.inline(result.question, 300)}")
    if result.asked and result.asked != result.question:
        st.caption(f"Asked as: {safe.inline(result.asked, 300)} (a follow-up of run {result.follow_up_of})")
    _actions(result, settings)
    pack.download_buttons(result, key="history_pack")
    views.show_run(result, key="history")
    feedback.mark_pages(result, key="history_mark")


def _compare(rows: list[RunSummary]) -> None:
    st.subheader("Compare two runs")
    labels = {r.run_id: run_label(r) for r in rows}
    pair = st.multiselect("Pick two runs", list(labels), max_selections=2, key="loupe_history_compare",
                          format_func=partial(state.label_of, labels))  # fmt: skip
    if len(pair) != 2:
        st.caption("Pick two runs to see them side by side.")
        return
    try:
        a, b = (services.store().get(run_id) for run_id in pair)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return
    st.dataframe(compare_rows(a, b), hide_index=True, width="stretch")


def page(settings: Settings) -> None:
    st.title("History")
    st.write("Every question asked here or on the command line, saved with its whole result beside the library.")
    for kind, message in state.pop_flashes():
        {"error": st.error, "warning": st.warning}.get(kind, st.success)(safe.inline(message))
    search = st.text_input("Search questions, answers and documents", key="loupe_history_search",
                           max_chars=MAX_SEARCH_CHARS)  # fmt: skip
    try:
        rows = services.store().list(search, limit=LIST_LIMIT)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return
    skipped = getattr(services.store(), "skipped", ())
    if skipped:
        st.warning(f"{len(skipped)} damaged run(s) could not be read and are left out: "
                   f"{safe.inline(', '.join(skipped[:5]))}{' and more' if len(skipped) > 5 else ''}.")  # fmt: skip
    if not rows:
        st.info("No saved run matches." if search.strip() else "No saved run yet. Ask a question on the Ask page.")
        return
    st.caption(f"{len(rows)} run(s), newest first" + (f" (the latest {LIST_LIMIT})" if len(rows) == LIST_LIMIT else ""))
    st.dataframe(summary_rows(rows), hide_index=True, width="stretch")
    _open(rows, settings)
    st.divider()
    _compare(rows)
