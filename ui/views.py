"""Streamlit views of a run: answer, activation column, narration, stop reason, evidence pages, budget."""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

import engine
from engine import RunResult
from ui import charts, evidence, safe
from ui.evidence import anchor


def activation_rows(result: RunResult) -> list[dict[str, str]]:
    """The activation column for engineers: all seven patterns by their engine names, on/off, and the reason."""
    return [
        {"pattern": name, "on": "ON" if d.on else "off", "reason": safe.inline(d.reason)}
        for name, d in result.activations.items()
    ]


def narration_lines(result: RunResult) -> list[str]:
    """The engine's own narration, one line per pass (for the details)."""
    lines = []
    for r in result.history:
        narration = re.sub(r"^Pass \d+:\s*", "", r.narration)  # the prefix already says which pass
        lines.append(f"**{r.iteration}** · `{r.trigger}` → `{r.action_taken}`: {safe.inline(narration)}")
    return lines


def budget_caption(result: RunResult) -> str:
    """What the run used of each allowance, in plain words."""
    return safe.inline(engine.budget_sentence(result))


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
    st.caption(f"{safe.inline(engine.strategy_line(result))} Confidence {result.answer.confidence:.0%}.")


def show_activations(result: RunResult) -> None:
    st.subheader("How Loupe searched")
    frame = pd.DataFrame(engine.analyst_activation_rows(result))
    styled = frame.style.apply(_row_style, axis=1)
    st.table(styled, border="horizontal", hide_index=True)


def _row_style(row: pd.Series) -> list[str]:
    """Green for a step that was used, grey for one that was not."""
    if row["used"] == "yes":
        return ["background-color: #E3F2EC; color: #0B6E4F; font-weight: 600"] * len(row)
    return ["opacity: 0.6"] * len(row)


def show_narration(result: RunResult) -> None:
    st.subheader("What each pass did")
    lines = [safe.inline(line) for line in engine.pass_lines(result)]
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else "_No pass was recorded._")


def stop_sentence(result: RunResult) -> str:
    """Why the run stopped, in plain words ("The answer covers the question.")."""
    return engine.stop_sentence(result)


def show_stop(result: RunResult) -> None:
    message = stop_sentence(result)
    if result.exhausted:
        st.warning(message + " An allowance ran out; the best answer found so far is shown.")
    elif result.answer.complete_answer_found:
        st.success(message)
    else:
        st.info(message + " The answer is not claimed as complete: see the notes below for what it lacks.")
    for caveat in engine.caveat_texts(result.answer.caveats):
        st.caption(f"⚠️ {safe.inline(caveat)}")
    for fallback in result.fallbacks:
        st.caption(f"↩️ {safe.inline(engine.fallback_sentence(fallback))}")


def show_details(result: RunResult) -> None:
    """The engineering names and reasons of a run (inside a "Details" expander or popover)."""
    st.markdown(f"Strategy `{result.strategy_effective}` (asked `{result.strategy_requested}`): "
                f"{safe.inline(result.strategy_reason)} · backend `{result.backend}` · stop `{result.stop_reason}`"
                f" · run `{result.run_id}`")  # fmt: skip
    st.markdown("**Activation column**")
    st.table(pd.DataFrame(activation_rows(result)), border="horizontal", hide_index=True)
    st.markdown("**Narration**")
    lines = narration_lines(result)
    st.markdown("\n".join(f"- {line}" for line in lines) if lines else "_No pass was recorded._")
    for fallback in result.fallbacks:
        st.markdown(f"Fallback `{fallback.task}`: {safe.inline(fallback.reason)}")
    u = result.usage
    st.markdown(f"Usage: iterations {u.iterations}, llm_calls {u.llm_calls}, retrieval_calls {u.retrieval_calls} "
                f"(+{u.cached_retrievals} cached), unique_queries {u.unique_queries}, context_tokens "
                f"{u.context_tokens}, latency {u.latency_ms:.0f} ms")  # fmt: skip


def details(result: RunResult, nested: bool = False) -> None:
    """The "Details" box: an expander, or a popover inside another expander (expanders do not nest)."""
    box = st.popover("Details", width="stretch") if nested else st.expander("Details")
    with box:
        show_details(result)


def show_usage(result: RunResult, key: str = "usage") -> None:
    st.subheader("Allowance used")
    st.caption(budget_caption(result))
    st.plotly_chart(charts.usage_chart(result), key=key)


def show_run(result: RunResult, key: str = "run") -> None:
    """The whole result of a run: answer, activation column, stop, budget, narration and evidence pages."""
    left, right = st.columns([2, 3], gap="large")
    with left:
        show_activations(result)
        show_stop(result)
        show_usage(result, key=f"{key}_usage")
        details(result)
    with right:
        show_answer(result)
        show_narration(result)
    evidence.show_evidence(result, key=f"{key}_ev")
