"""The Evaluate page's parts: choosing a question set (bundled, uploaded, or the personal set built by
marking runs), running it with progress, and showing the report with readable columns and charts."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import streamlit as st

import engine
from engine import EngineConfig
from ui import safe, services, state
from ui.charts import reliability_chart, selective_chart

Summary = Any
"""engine.eval's Summary (the UI reaches the evaluation only through engine's public API)."""

REPORT_KEY = "eval_report_json"
UPLOAD = "Upload a JSONL file"
PERSONAL = "My question set"
COLUMN_LABELS: dict[str, str] = {
    "n": "questions",
    "errors": "errors",
    "recall": "evidence recall",
    "precision": "evidence precision",
    "retrieved_recall": "recall of all retrieved pages",
    "full_recall_rate": "share with every gold page cited",
    "answer_match": "answer match",
    "unanswerable_accuracy": "unanswerable questions declined",
    "mean_cited_pages": "pages cited",
    "llm_calls": "LLM calls",
    "retrieval_calls": "retrieval calls",
    "unique_queries": "unique queries",
    "context_tokens": "context tokens",
    "exhaustion_rate": "share that exhausted a budget",
    "latency_p50_ms": "median latency (ms)",
    "latency_p95_ms": "95th percentile latency (ms)",
    "cost_per_correct": "cost per correct answer",
    "llm_calls_per_correct": "LLM calls per correct answer",
}
"""Summary field -> the column name a reader sees (every metric, in the report's order)."""


LIBRARY_ONLY = -1
"""The corpus choice "documents from the library only" (no folder on the server is read)."""


def corpus_choice(column: Any) -> Path | None:
    """Where a set's documents come from: a folder the operator allows (``engine.corpus_folders``: the shared
    corpus, ``$LOUPE_EVAL_CORPORA``), or None for the library only. No free path: a visitor never names a
    folder of the server."""
    folders = engine.corpus_folders()
    labels = {
        LIBRARY_ONLY: "the library only",
        **{n: f"the {f.name} folder, then the library" for n, f in enumerate(folders)},
    }
    choice = column.selectbox("Documents from", list(labels), index=1 if folders else 0, key="loupe_eval_corpus",
                              format_func=partial(state.label_of, labels),
                              help="Set documents are looked up by file name in the library; the server folders "
                              "offered here are the ones the operator lists in LOUPE_EVAL_CORPORA.")  # fmt: skip
    return folders[choice] if choice in range(len(folders)) else None


def readable_rows(summaries: tuple[Summary, ...] | list[Summary]) -> list[dict[str, object]]:
    """One row per (strategy, slice) with readable column names; empty metrics stay empty."""
    rows = []
    for s in summaries:
        row: dict[str, object] = {"strategy": s.strategy, "questions of": s.slice.removeprefix("type:")}
        for field, label in COLUMN_LABELS.items():
            value = getattr(s, field)
            row[label] = round(value, 3) if isinstance(value, float) else value
        rows.append(row)
    return rows


def choose_set(limit: int | None):
    """The question set picked on the page (None until an upload arrives)."""
    personal = engine.personal_set_path(services.library_config())
    count = engine.personal_set_size(services.library_config())
    options = [f"Bundled: {name}" for name in engine.bundled_sets()]
    if count:
        options.insert(0, PERSONAL)
    options.append(UPLOAD)
    labels = {PERSONAL: f"{PERSONAL} ({count} questions)"}
    choice = st.radio("Question set", options, horizontal=True, key="loupe_eval_set",
                      format_func=partial(state.label_of, labels))  # fmt: skip
    if not count:
        st.caption("Mark the cited pages of a run (Ask, Inspect or History) to build your own question set here.")
    if choice == PERSONAL:
        return engine.load_eval_set(personal, limit=limit, name="my questions")
    if choice != UPLOAD:
        return engine.load_eval_set(choice.removeprefix("Bundled: "), limit=limit)
    uploaded = st.file_uploader("Question set (JSONL: id, doc, question, answer, evidence_pages, type)", type=["jsonl"])
    if uploaded is None:
        return None
    text = uploaded.getvalue().decode("utf-8", errors="replace")
    return engine.parse_eval_lines(text, source=uploaded.name, name=Path(uploaded.name).stem, limit=limit)


def run(config: EngineConfig, strategies: list[str], limit: int | None, price: float, corpus: Path | None) -> None:
    eval_set = choose_set(limit)
    if eval_set is None:
        st.info("Upload a JSONL question set; its documents must be in the library (upload them on the Ask page).")
        return
    st.caption(f"{len(eval_set.questions)} question(s) x {len(strategies)} strategy(ies)")
    if not st.button("Run evaluation", type="primary", disabled=not strategies, key="loupe_eval_run"):
        return
    bar = st.progress(0.0, text="starting")

    def progress(event: Any) -> None:
        share = event.done / event.total if event.total else 1.0
        bar.progress(min(share, 1.0), text=f"{event.stage}: {safe.inline(event.message, 120)}")

    report = engine.run_eval(
        eval_set, strategies, config=config, corpus=corpus, price_per_1k=price, progress=progress,
        library=services.library(), library_only=corpus is None,
    )  # fmt: skip
    bar.progress(1.0, text=f"done in {report.seconds:.1f} s")
    st.session_state[REPORT_KEY] = report.model_dump_json()


def show(report: Any) -> None:
    st.subheader(f"Results: {safe.inline(report.set_name)} ({report.questions} questions, backend {report.backend})")
    for failure in report.ingest_failures:
        st.warning(f"Not ingested: {safe.inline(failure)}")
    overall = [s for s in report.summaries if not s.slice.startswith("type:")]
    by_type = [s for s in report.summaries if s.slice.startswith("type:")]
    st.dataframe(readable_rows(overall), hide_index=True)
    st.markdown("**Per question type**")
    st.dataframe(readable_rows(by_type), hide_index=True)
    left, right = st.columns(2)
    left.plotly_chart(recall_chart(by_type, report.strategies), key="eval_recall")
    right.plotly_chart(cost_chart(report), key="eval_cost")
    calibration = getattr(report, "calibration", ())
    if calibration:
        st.markdown("**Confidence**: does it mean what it says?")
        st.caption(" · ".join(
            f"{c.strategy}: AUC {'-' if c.auc is None else f'{c.auc:.2f}'} (right against wrong stated answers), "
            f"{c.claimed} claimed complete, {'-' if c.claimed_right is None else f'{c.claimed_right:.0%}'} of them right"
            for c in calibration
        ))  # fmt: skip
        left, right = st.columns(2)
        left.plotly_chart(reliability_chart(calibration), key="eval_reliability")
        right.plotly_chart(selective_chart(calibration), key="eval_selective")
    errors = [r for r in report.rows if r.error]
    if errors:
        first = errors[0]
        st.caption(f"{len(errors)} run(s) failed; first: {safe.inline(first.question_id)} [{first.strategy}]: "
                   f"{safe.inline(first.error or '', 300)}")  # fmt: skip
    st.download_button(
        "Download report (JSON)", report.model_dump_json(indent=1), file_name="eval-report.json",
        mime="application/json",
    )  # fmt: skip


def recall_chart(by_type: list[Summary], strategies: tuple[str, ...]) -> go.Figure:
    figure = go.Figure()
    for strategy in strategies:
        mine = [s for s in by_type if s.strategy == strategy]
        figure.add_bar(
            name=strategy, x=[s.slice.removeprefix("type:") for s in mine], y=[s.recall or 0.0 for s in mine]
        )
    figure.update_layout(title="Evidence-page recall by question type", barmode="group", yaxis_range=[0, 1],
                         xaxis_title="question type", yaxis_title="evidence recall", legend_title_text="strategy",
                         height=400, margin={"t": 60, "b": 60})  # fmt: skip
    return figure


def cost_chart(report: Any) -> go.Figure:
    """LLM calls per question against recall, one labelled point per strategy, with a legend."""
    figure = go.Figure()
    xs = []
    for strategy in report.strategies:
        s = report.summary(strategy)
        if s is None:
            continue
        xs.append(s.llm_calls or 0.0)
        figure.add_scatter(x=[s.llm_calls or 0.0], y=[s.recall or 0.0], mode="markers+text", name=strategy,
                           text=[strategy], textposition="top center", marker={"size": 14}, cliponaxis=False)  # fmt: skip
    span = max(xs, default=1.0) or 1.0
    figure.update_layout(title="Cost against recall (one point per strategy)", xaxis_title="LLM calls per question",
                         yaxis_title="evidence recall", yaxis_range=[0, 1.1], xaxis_range=[-0.15 * span, 1.25 * span],
                         legend_title_text="strategy", showlegend=True, height=400,
                         margin={"t": 60, "b": 60, "l": 60, "r": 20})  # fmt: skip
    return figure
