"""The History page: every saved run (it survives a restart). Search, reopen (also as a conversation
on the Ask page), re-run with another strategy, compare two runs, download the evidence pack, delete."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial

import streamlit as st

import engine
from engine import LoupeError, RunResult, RunSummary
from ui import feedback, pack, replay, safe, services, state, views
from ui.ask import ask
from ui.settings import STRATEGIES, Settings

LIST_LIMIT = 200
CONFIRM = "history_confirm_delete"
OPEN_NEXT = "history_open_next"
"""A run to open on the next draw (set by Re-run): applied once, then dropped, so the picker is never
forced back to it afterwards (that overwrite is what made the picker snap back to the first run opened)."""
PICKER = "loupe_history_run"
COMPARISON_WINDOW_SECONDS = 600
"""Runs of one question over the same documents, each with a different strategy, started within ten minutes
of the next, are one comparison (what the Compare page saves): one entry in the list, not five."""


@st.cache_data(show_spinner=False, max_entries=1024)
def run_brief(run_id: str, _store: object) -> dict[str, object]:
    """What the list shows of a run beyond its summary (a saved run does not change; cached by id)."""
    try:
        r = services.store().get(run_id)
    except LoupeError:
        return {"confidence": None, "complete": None, "requested": ""}
    return {"confidence": r.answer.confidence, "complete": r.answer.complete_answer_found,
            "requested": r.strategy_requested}  # fmt: skip


@dataclass(frozen=True)
class Entry:
    """One line of the history: a run, or a comparison (several runs of one question)."""

    key: str
    rows: tuple[RunSummary, ...]

    @property
    def comparison(self) -> bool:
        return len(self.rows) > 1


def _seconds(created_at: str) -> float:
    try:
        return datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def group_entries(rows: list[RunSummary], requested: dict[str, str]) -> list[Entry]:
    """The runs (newest first) as history entries: consecutive runs of one question over the same documents,
    each asked with a different strategy, started within ``COMPARISON_WINDOW_SECONDS`` of each other, are one
    comparison entry."""
    entries: list[list[RunSummary]] = []
    for row in rows:
        group = entries[-1] if entries else None
        if (group is not None and not row.follow_up_of and not group[-1].follow_up_of
                and row.question == group[-1].question and row.documents == group[-1].documents
                and requested.get(row.run_id) not in {requested.get(g.run_id) for g in group}
                and abs(_seconds(group[-1].created_at) - _seconds(row.created_at)) <= COMPARISON_WINDOW_SECONDS):  # fmt: skip
            group.append(row)
        else:
            entries.append([row])
    return [Entry(key=g[0].run_id if len(g) == 1 else "comparison:" + g[0].run_id, rows=tuple(g)) for g in entries]


def _when(created_at: str) -> str:
    return created_at[:16].replace("T", " ")


def summary_rows(entries: list[Entry], briefs: dict[str, dict[str, object]]) -> list[dict[str, object]]:
    """The history table: one row per entry, newest first."""
    table = []
    for entry in entries:
        first = entry.rows[0]
        brief = briefs.get(first.run_id, {})
        if entry.comparison:
            approach = f"Comparison of {len(entry.rows)} approaches"
            confidence, complete = "", ""
        else:
            approach = engine.strategy_label(first.strategy)
            value = brief.get("confidence")
            confidence = f"{value:.0%}" if isinstance(value, float) else ""
            done = brief.get("complete")
            complete = "" if done is None else ("yes" if done else "no")
        table.append({
            "when (UTC)": _when(first.created_at),
            "question": ("↳ " if first.follow_up_of else "") + first.question,
            "documents": ", ".join(first.documents),
            "approach": approach,
            "confidence": confidence,
            "complete": complete,
        })  # fmt: skip
    return table


def entry_label(entry: Entry) -> str:
    """Plain text for a select box (Streamlit shows option labels as text)."""
    first = entry.rows[0]
    what = (f"comparison of {len(entry.rows)} approaches" if entry.comparison
            else engine.strategy_label(first.strategy).lower())  # fmt: skip
    return f"{_when(first.created_at)} · {safe.clip(first.question, 80)} · {what}"


def unique_labels(labels: dict[str, str]) -> dict[str, str]:
    """Labels made distinct: Streamlit keeps a select box's choice by its label, so two options with one
    label would open the wrong one of them (two runs of one question in the same minute, say)."""
    seen: dict[str, int] = {}
    out = {}
    for key, label in labels.items():
        seen[label] = seen.get(label, 0) + 1
        out[key] = label if seen[label] == 1 else f"{label} ({seen[label]})"
    return out


def run_label(row: RunSummary) -> str:
    """Plain text for a select box (Streamlit shows option labels as text)."""
    return f"{_when(row.created_at)} · {safe.clip(row.question, 80)} · {engine.strategy_label(row.strategy).lower()}"


def compare_rows(a: RunResult, b: RunResult) -> list[dict[str, object]]:
    """Two runs side by side, one row per aspect."""

    def facts(r: RunResult) -> dict[str, str]:
        return {
            "question": r.question,
            "approach": engine.strategy_line(r).removeprefix("Approach: "),
            "answer": r.answer.text,
            "evidence pages": ", ".join(f"{p.file_name} p{p.page}" for p in r.evidence_pages) or "none",
            "steps used": ", ".join(engine.pattern_label(name) for name, d in r.activations.items() if d.on),
            "passes": str(len(r.history)),
            "why it stopped": engine.stop_sentence(r) + (" (an allowance ran out)" if r.exhausted else ""),
            "confidence": f"{r.answer.confidence:.0%}",
            "language-model calls": str(r.usage.llm_calls),
            "searches": str(r.usage.retrieval_calls),
            "text read (tokens)": str(r.usage.context_tokens),
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
        state.flash("The run was deleted.")
    state.ns().pop(CONFIRM, None)
    st.session_state.pop(PICKER, None)


def _actions(result: RunResult, settings: Settings) -> None:
    cols = st.columns([2, 2, 1, 2], vertical_alignment="bottom")
    if cols[0].button("Continue this conversation on Ask", key="loupe_history_continue", width="stretch"):
        _continue_on_ask(result)
        st.switch_page("pages/0_Ask.py")
    others = [s for s in STRATEGIES if s != result.strategy_requested]
    strategy = cols[1].selectbox("Re-run with another approach", others, key="loupe_history_strategy",
                                 format_func=engine.strategy_label)  # fmt: skip
    if cols[2].button("Re-run", key="loupe_history_rerun", width="stretch"):
        fresh = ask(result.question, [d.doc_id for d in result.docs], settings, strategy=strategy)
        if fresh is not None:
            state.ns()[OPEN_NEXT] = fresh.run_id
            state.flash(f"Re-ran the question with the approach “{engine.strategy_label(strategy)}”; it is open below.")
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


def share_link(run_id: str) -> str:
    """The link that opens a run read-only on this server (relative to the History page)."""
    return f"?run={run_id}"


def show_saved_run(result: RunResult, settings: Settings | None, key: str = "history") -> None:
    """One saved run; with ``settings`` None it is read-only (no continue, re-run or delete)."""
    st.markdown(f"#### {safe.inline(result.question, 300)}")
    if result.asked and result.asked != result.question:
        st.caption(f"Asked as: {safe.inline(result.asked, 300)} (a follow-up question)")
    if settings is not None:
        _actions(result, settings)
    st.caption(f"Share this run with a colleague on this server: [link to this run]({share_link(result.run_id)})")
    pack.download_buttons(result, key=f"{key}_pack")
    views.show_run(result, key=key)
    replay.show_replay(result, key=f"{key}_replay")
    if settings is not None:
        feedback.mark_pages(result, key=f"{key}_mark")


def _approach_of(row: RunSummary) -> str:
    """A run of a comparison by its approach as asked ("Automatic: one pass")."""
    requested = str(run_brief(row.run_id, services.store())["requested"])
    effective = engine.strategy_label(row.strategy)
    if requested == "auto":
        return f"Automatic: {effective.lower()}"
    return engine.strategy_label(requested) if requested else effective


def _open(entries: list[Entry], settings: Settings) -> None:
    keys = [e.key for e in entries]
    by_key = {e.key: e for e in entries}
    wanted = state.ns().pop(OPEN_NEXT, None)
    if wanted is not None:
        match = next((e.key for e in entries if any(r.run_id == wanted for r in e.rows)), None)
        if match is not None:
            st.session_state[PICKER] = match
    if st.session_state.get(PICKER) not in keys:
        st.session_state.pop(PICKER, None)  # a deleted run, or a search that hides it
    labels = unique_labels({k: entry_label(e) for k, e in by_key.items()})
    chosen = st.selectbox("Open a run", keys, format_func=partial(state.label_of, labels), key=PICKER)
    if chosen is None:
        return
    entry = by_key[chosen]
    run_id = entry.rows[0].run_id
    if entry.comparison:
        st.caption("These runs asked one question with several approaches (the Compare page).")
        ids = [r.run_id for r in entry.rows]
        inner = unique_labels({r.run_id: _approach_of(r) for r in entry.rows})
        run_id = st.selectbox("Open one of its runs", ids, key=f"loupe_history_in_{chosen}",
                              format_func=partial(state.label_of, inner))  # fmt: skip
    try:
        result = services.store().get(run_id)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return
    show_saved_run(result, settings)


def _compare(rows: list[RunSummary]) -> None:
    st.subheader("Compare two runs")
    labels = unique_labels({r.run_id: run_label(r) for r in rows})
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


def _shared(run_id: str) -> None:
    """The run a ``?run=<run_id>`` link names, read-only."""
    st.caption("A shared run, read-only.")
    try:
        result = services.store().get(run_id)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
    else:
        show_saved_run(result, None, key="shared")
    if st.button("Show every saved run", key="loupe_history_all"):
        st.query_params.clear()
        st.rerun()


def page(settings: Settings) -> None:
    st.title("History")
    shared = st.query_params.get("run")
    if shared:
        _shared(str(shared))
        return
    st.write("Every question asked here or on the command line, saved with its whole result beside the library.")
    for kind, message in state.pop_flashes():
        (st.error if kind == "error" else st.success)(safe.inline(message))
    search = st.text_input("Search questions, answers and documents", key="loupe_history_search")
    try:
        rows = services.store().list(search, limit=LIST_LIMIT)
    except LoupeError as error:
        st.error(safe.inline(str(error)))
        return
    if not rows:
        st.info("No saved run matches." if search.strip() else "No saved run yet. Ask a question on the Ask page.")
        return
    store = services.store()
    briefs = {r.run_id: run_brief(r.run_id, store) for r in rows}
    entries = group_entries(rows, {k: str(v["requested"]) for k, v in briefs.items()})
    st.caption(f"{len(rows)} run(s), newest first" + (f" (the latest {LIST_LIMIT})" if len(rows) == LIST_LIMIT else "")
               + (f"; {len(rows) - len(entries)} of them in comparisons" if len(entries) < len(rows) else ""))  # fmt: skip
    st.dataframe(summary_rows(entries, briefs), hide_index=True, width="stretch")
    _open(entries, settings)
    st.divider()
    _compare(rows)
