"""The Inspect page: the full audit trail of one of this session's runs, in plain words; the engine's own
names and records are under "Details"."""

from __future__ import annotations

from functools import partial

import streamlit as st

import engine
from engine import RunResult
from ui import charts, feedback, pack, replay, safe, state, views


def iteration_rows(result: RunResult) -> list[dict[str, object]]:
    """Every IterationRecord as a table row, by the engine's names (for the details)."""
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
    return f"#{n + 1} · {safe.clip(result.question, 70)} · {engine.strategy_label(result.strategy_effective)}"


def _details(result: RunResult) -> None:
    with st.expander("Details"):
        st.caption(f"Config fingerprint `{result.config_fingerprint}` · run `{result.run_id}`")
        views.show_details(result)
        st.markdown("**Parsed question**")
        st.json(result.parsed_question.model_dump(mode="json"), expanded=1)
        st.markdown("**Document profiles**")
        st.dataframe(profile_rows(result), hide_index=True)
        st.markdown("**Iterations**")
        st.dataframe(iteration_rows(result), hide_index=True)


def show_trail(result: RunResult, key: str = "inspect") -> None:
    """The audit trail of one run in plain words: the question's reading, the documents, the steps used,
    each pass, the stop, the charts, and a pass-by-pass replay."""
    st.caption(f"{safe.inline(engine.strategy_line(result))} Confidence {result.answer.confidence:.0%}.")
    st.subheader("How the question was read")
    st.table(engine.question_rows(result), border="horizontal", hide_index=True)
    st.subheader("Documents")
    st.dataframe(engine.document_rows(result), hide_index=True)
    views.show_activations(result)
    st.subheader("Passes")
    st.dataframe(engine.pass_rows(result), hide_index=True)
    views.show_stop(result)
    replay.show_replay(result, key=f"{key}_replay")
    left, right = st.columns(2)
    with left:
        st.plotly_chart(charts.confidence_chart(result), key=f"{key}_confidence")
    with right:
        if result.page_scores:
            st.plotly_chart(charts.page_scores_chart(result), key=f"{key}_scores")
        else:
            st.info("This run recorded no page scores.")
    st.plotly_chart(charts.usage_chart(result), key=f"{key}_usage")
    _details(result)


def page() -> None:
    st.title("Inspect")
    st.write("The audit trail of this session's runs (newest first): how the question was read, which "
             "steps were used, what every pass did and what it cost.")  # fmt: skip
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
    show_trail(result)
    st.download_button("Download the run (JSON)", result.model_dump_json(indent=2),
                       file_name=f"loupe-run-{(chosen or 0) + 1}.json", mime="application/json")  # fmt: skip
    pack.download_buttons(result, key="inspect_pack")
    feedback.mark_pages(result, key="inspect_mark")
