"""The Compare page: one question, every strategy, side by side."""

from __future__ import annotations

from functools import partial

import streamlit as st

import engine
from engine import MAX_QUESTION_CHARS, RunResult
from ui import charts, safe, services, state
from ui.ask import ask
from ui.settings import COMPARE_STRATEGIES, Settings

KEY = "compare"


def compare_rows(results: list[RunResult]) -> list[dict[str, object]]:
    """One row per strategy: answer excerpt, evidence pages and cost."""
    rows = []
    for r in results:
        text = r.answer.text
        approach = engine.strategy_label(r.strategy_requested)
        if r.strategy_requested == "auto":
            approach = f"Automatic: {engine.strategy_label(r.strategy_effective).lower()}"
        rows.append({
            "approach": approach,
            "answer": text if len(text) <= 160 else text[:157] + "...",
            "evidence pages": ", ".join(f"p{p.page}" for p in r.evidence_pages),
            "confidence": f"{r.answer.confidence:.0%}",
            "language-model calls": r.usage.llm_calls,
            "searches": r.usage.retrieval_calls,
            "text read (tokens)": r.usage.context_tokens,
            "seconds": round(r.usage.latency_ms / 1000, 2),
            "why it stopped": engine.stop_sentence(r),
        })  # fmt: skip
    return rows


def page(settings: Settings) -> None:
    st.title("Compare strategies")
    st.write("Run the same question with every strategy over the same documents and see what each one found "
             "and what it cost.")  # fmt: skip
    entries = services.entries()
    sample = services.sample_entry()
    names = {e.doc_id: e.file_name for e in entries}
    default = [d for d in (state.value("docs") or ([sample.doc_id] if sample else [])) if d in names]
    doc_ids = st.multiselect("Documents", list(names), default=default, format_func=partial(state.label_of, names),
                             key="loupe_compare_docs")  # fmt: skip
    question = st.text_input("Question", value=(state.value("question") or "")[:MAX_QUESTION_CHARS],
                             key="loupe_compare_question", max_chars=MAX_QUESTION_CHARS)  # fmt: skip
    strategies = st.multiselect("Approaches", COMPARE_STRATEGIES, default=list(COMPARE_STRATEGIES),
                                key="loupe_compare_strategies", format_func=engine.strategy_label)  # fmt: skip
    if st.button("Run comparison", type="primary", disabled=not strategies):
        if not question.strip():
            st.error("The question is empty; type a question first.")
        elif not doc_ids:
            st.error("No document selected; pick one from the library.")
        else:
            results = [ask(question, doc_ids, settings, strategy=s) for s in strategies]
            state.ns()[KEY] = [r.model_dump_json() for r in results if r is not None]
    stored = [RunResult.model_validate_json(t) for t in state.ns().get(KEY, [])]
    if not stored:
        return
    st.subheader(f"Results: {safe.inline(stored[0].question, 200)}")
    st.dataframe(compare_rows(stored), hide_index=True)
    cost = st.radio("Cost axis", ["llm_calls", "context_tokens"], horizontal=True, key="loupe_compare_cost",
                    format_func=partial(state.label_of, {"llm_calls": "language-model calls", "context_tokens": "text read (tokens)"}))  # fmt: skip
    st.plotly_chart(charts.cost_chart(stored, cost), key="compare_cost")
