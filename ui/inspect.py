"""The Inspect page: the full audit trail of one of this session's runs."""

from __future__ import annotations

from functools import partial

import streamlit as st

from engine import RunResult
from ui import charts, feedback, pack, safe, state, views


def iteration_rows(result: RunResult) -> list[dict[str, object]]:
    """Every IterationRecord as a table row."""
    return [
        {
            "pass": r.iteration,
            "trigger": r.trigger,
            "action": r.action_taken,
            "queries": " | ".join(r.queries),
            "pages added": ", ".join(f"{p.file_name} p{p.page}" for p in r.pages_added),
            "candidates added": len(r.candidates_added),
            "confidence before": round(r.confidence_before, 3),
            "confidence after": round(r.confidence_after, 3),
            "LLM calls so far": r.budget_spent.llm_calls,
            "retrieval calls so far": r.budget_spent.retrieval_calls,
            "narration": r.narration,
        }
        for r in result.history
    ]


def profile_rows(result: RunResult) -> list[dict[str, object]]:
    return [p.model_dump() for p in result.profiles]


def _label(n: int, result: RunResult) -> str:
    return f"#{n + 1} · {safe.clip(result.question, 70)} · {result.strategy_effective} · {result.stop_reason}"


def page() -> None:
    st.title("Inspect")
    st.write("The audit trail of this session's runs (newest first): how the question was read, which "
             "patterns fired, what every pass did and what it cost.")  # fmt: skip
    runs = state.runs()
    if not runs:
        st.info("No run yet in this session. Ask a question on the Ask page first.")
        return
    chosen = st.selectbox(
        "Run",
        range(len(runs)),
        format_func=partial(state.label_of, {n: _label(n, r) for n, r in enumerate(runs)}),
        key="loupe_inspect_run",
    )
    result = runs[chosen or 0]
    st.caption(f"Config fingerprint `{result.config_fingerprint}` · backend {result.backend} · strategy "
               f"{result.strategy_effective} (asked {result.strategy_requested}) · {safe.inline(result.strategy_reason)}")  # fmt: skip
    st.subheader("Parsed question")
    st.json(result.parsed_question.model_dump(mode="json"), expanded=1)
    st.subheader("Document profiles")
    st.dataframe(profile_rows(result), hide_index=True)
    views.show_activations(result)
    st.subheader("Iterations")
    st.dataframe(iteration_rows(result), hide_index=True)
    views.show_stop(result)
    left, right = st.columns(2)
    with left:
        st.plotly_chart(charts.confidence_chart(result), key="inspect_confidence")
    with right:
        if result.page_scores:
            st.plotly_chart(charts.page_scores_chart(result), key="inspect_scores")
        else:
            st.info("This run recorded no page scores.")
    st.plotly_chart(charts.usage_chart(result), key="inspect_usage")
    st.download_button("Download the run (JSON)", result.model_dump_json(indent=2),
                       file_name=f"loupe-run-{chosen + 1}.json", mime="application/json")  # fmt: skip
    pack.download_buttons(result, key="inspect_pack")
    feedback.mark_pages(result, key="inspect_mark")
