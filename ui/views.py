"""Streamlit views of a run: answer, activation column, narration, stop reason, evidence pages, budget."""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

import engine
from engine import RunResult
from ui import charts, evidence, safe
from ui.evidence import anchor

PATTERN_LABELS = {
    "toc_retrieval": "TOC retrieval",
    "keyword_retrieval": "Keyword retrieval",
    "dense_retrieval": "Dense retrieval",
    "two_hop_references": "Two-hop references",
    "listing_aggregation": "Listing aggregation",
    "adaptive_parsing": "Adaptive parsing",
    "iterative_feedback": "Iterative feedback",
}


def activation_rows(result: RunResult) -> list[dict[str, str]]:
    """The activation column as table rows: all seven patterns, on/off, and the reason."""
    return [
        {"pattern": PATTERN_LABELS[name], "on": "ON" if d.on else "off", "reason": safe.inline(d.reason)}
        for name, d in result.activations.items()
    ]


def narration_lines(result: RunResult) -> list[str]:
    """One line per IterationRecord: pass, trigger -> action, narration."""
    lines = []
    for r in result.history:
        added = f" (+{len(r.pages_added)} page(s))" if r.pages_added else ""
        trigger = r.trigger.replace("_", " ")
        action = r.action_taken.replace("_", " ")
        narration = re.sub(r"^Pass \d+:\s*", "", r.narration)  # the bold prefix already says which pass
        lines.append(f"**Pass {r.iteration}** · {trigger} → {action}{added}: {safe.inline(narration)}")
    return lines


def budget_caption(result: RunResult) -> str:
    """What the run spent of each limit ("retrieval calls 3 of 28, 5 more from the cache")."""
    b, u = result.budget, result.usage
    cached = f", {u.cached_retrievals} more from the cache" if u.cached_retrievals else ""
    return (f"Spent: feedback passes {u.iterations} of {b.max_iterations} · LLM calls {u.llm_calls} of "
            f"{b.max_llm_calls} · retrieval calls {u.retrieval_calls} of {b.max_retrieval_calls}{cached} · "
            f"distinct queries {u.unique_queries} of {b.max_unique_queries} · context tokens {u.context_tokens} of "
            f"{b.max_context_tokens} · seconds {u.latency_ms / 1000:.1f} of {b.max_seconds:g}")  # fmt: skip


def citation_lines(result: RunResult, role: str = "answer") -> list[str]:
    """Markdown lines of the citations with ``role`` (answer or support), numbered across both."""
    names = {d.doc_id: d.file_name for d in result.docs}
    lines = []
    for n, c in enumerate(result.answer.citations, start=1):
        if c.role != role:
            continue
        name = safe.inline(names.get(c.doc_id, c.doc_id[:12] or "document"))
        lines.append(
            f"[{n}] **{name}**, [page {c.page}](#{anchor(c.doc_id, c.page, result.run_id)}): “{safe.inline(c.quote, 180)}”"
        )
    return lines


def answer_markdown(text: str) -> str:
    """The answer escaped, its own line breaks kept (one line per comparison side or list item)."""
    return safe.md(text)


def show_answer(result: RunResult) -> None:
    st.subheader("Answer")
    if result.answer.answer_found:
        st.markdown(answer_markdown(result.answer.text) or "_(empty answer)_")
    else:
        st.warning(safe.md(result.answer.text) or "The selected documents do not seem to contain an answer.")
    lines = citation_lines(result, "answer")
    if lines:
        st.markdown("**Citations**  \n" + "  \n".join(lines))
    support = citation_lines(result, "support")
    if support:
        title = "Closest passages" if not result.answer.answer_found else "Supporting passages on other pages"
        st.markdown(f"**{title}**  \n" + "  \n".join(support))
    meta = (f"Strategy: **{result.strategy_effective}** (asked: {result.strategy_requested}; "
            f"{safe.inline(result.strategy_reason)})"
            f" · backend {result.backend} · confidence {result.answer.confidence:.2f}")  # fmt: skip
    st.caption(meta)


def show_activations(result: RunResult) -> None:
    st.subheader("Activation column")
    frame = pd.DataFrame(activation_rows(result))
    styled = frame.style.apply(_row_style, axis=1)
    st.table(styled, border="horizontal", hide_index=True)


def _row_style(row: pd.Series) -> list[str]:
    """Green for a pattern that fired, grey for one that did not."""
    if row["on"] == "ON":
        return ["background-color: #E3F2EC; color: #0B6E4F; font-weight: 600"] * len(row)
    return ["color: #777"] * len(row)


def show_narration(result: RunResult) -> None:
    st.subheader("Narration")
    lines = narration_lines(result)
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else "_No pass was recorded._")


def stop_sentence(result: RunResult) -> str:
    """Why the run stopped, in plain words ("The answer covers the question.")."""
    text = _stop_text().get(result.stop_reason, result.stop_reason.replace("_", " "))
    return text[:1].upper() + text[1:] + "."


def show_stop(result: RunResult) -> None:
    message = stop_sentence(result)
    if result.exhausted:
        st.warning(message + " A budget ran out; the best answer found so far is shown.")
    elif result.answer.complete_answer_found:
        st.success(message)
    else:
        st.info(message + " The answer is not claimed as complete: see the notes below for what it lacks.")
    for caveat in engine.caveat_texts(result.answer.caveats):
        st.caption(f"⚠️ {safe.inline(caveat)}")
    for fallback in result.fallbacks:
        step = fallback.task.replace("_", " ")
        st.caption(f"↩️ The {step} step was done by the offline rules: {safe.inline(fallback.reason)}")


def _stop_text() -> dict[str, str]:
    try:
        import engine

        return dict(engine.STOP_TEXT)
    except ImportError:  # the composition layer is not importable (partial install)
        return {}


def show_usage(result: RunResult, key: str = "usage") -> None:
    st.subheader("Budget")
    st.caption(budget_caption(result))
    st.plotly_chart(charts.usage_chart(result), key=key)


def show_run(result: RunResult, key: str = "run") -> None:
    """The whole result of a run: answer, activation column, stop, budget, narration and evidence pages."""
    left, right = st.columns([2, 3], gap="large")
    with left:
        show_activations(result)
        show_stop(result)
        show_usage(result, key=f"{key}_usage")
    with right:
        show_answer(result)
        show_narration(result)
    evidence.show_evidence(result, key=f"{key}_ev")
