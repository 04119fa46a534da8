"""Evaluate: run a question set through the strategies and compare recall, answers and cost."""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from engine import BACKEND_NAMES, EngineConfig, LoupeError, backend_label, escape_markdown
from engine.eval import (
    BASELINE_TOP5,
    DEFAULT_PRICE_PER_1K,
    EVAL_STRATEGIES,
    EvalProgress,
    EvalReport,
    bundled_sets,
    corpus_folders,
    load_eval_set,
    parse_eval_lines,
    run_eval,
    summary_rows,
)

REPORT_KEY = "eval_report_json"
UPLOAD = "Upload a JSONL file"
LIBRARY_ONLY = -1
"""The corpus choice "documents from the library only" (no folder on the server is read)."""


def _config() -> EngineConfig:
    """The shared sidebar's configuration when the ui package provides one, else minimal controls."""
    try:
        from ui.sidebar import render_sidebar  # type: ignore[import-not-found]

        settings = render_sidebar()
        if isinstance(settings, EngineConfig):
            return settings
        config = getattr(settings, "config", None)
        if isinstance(config, EngineConfig):
            return config
    except ImportError:
        pass
    backend = st.sidebar.radio(
        "Backend", list(BACKEND_NAMES), key="eval_backend", horizontal=True, format_func=backend_label
    )
    config = EngineConfig()
    return config.model_copy(update={"backend": config.backend.model_copy(update={"kind": backend})})


def _choose_set(limit: int | None):
    options = [f"Bundled: {name}" for name in bundled_sets()] + [UPLOAD]
    choice = st.radio("Question set", options, horizontal=True)
    if choice != UPLOAD:
        return load_eval_set(choice.removeprefix("Bundled: "), limit=limit)
    uploaded = st.file_uploader("Question set (JSONL: id, doc, question, answer, evidence_pages, type)", type=["jsonl"])
    if uploaded is None:
        return None
    text = uploaded.getvalue().decode("utf-8", errors="replace")
    return parse_eval_lines(text, source=uploaded.name, name=Path(uploaded.name).stem, limit=limit)


def _corpus_choice(column) -> Path | None:
    """The documents' folder: one the operator allows (``corpus_folders``), or None for the library only."""
    folders = corpus_folders()
    labels = {
        LIBRARY_ONLY: "the library only",
        **{n: f"the {f.name} folder, then the library" for n, f in enumerate(folders)},
    }
    choice = column.selectbox("Documents from", list(labels), index=1 if folders else 0, format_func=labels.get,
                              help="Set documents are looked up by file name in the library; the server folders "
                              "offered here are the ones the operator lists in LOUPE_EVAL_CORPORA.")  # fmt: skip
    return folders[choice] if choice in range(len(folders)) else None


def _run(config: EngineConfig, strategies: list[str], limit: int | None, price: float, corpus: Path | None) -> None:
    eval_set = _choose_set(limit)
    if eval_set is None:
        st.info("Upload a JSONL question set; its documents must be in the library (upload them on the Ask page).")
        return
    st.caption(f"{len(eval_set.questions)} question(s) x {len(strategies)} strategy(ies)")
    if not st.button("Run evaluation", type="primary", disabled=not strategies):
        return
    bar = st.progress(0.0, text="starting")

    def progress(event: EvalProgress) -> None:
        share = event.done / event.total if event.total else 1.0
        bar.progress(min(share, 1.0), text=f"{event.stage}: {event.message}")

    report = run_eval(
        eval_set, strategies, config=config, corpus=corpus, price_per_1k=price, progress=progress,
        library_only=corpus is None,
    )  # fmt: skip
    bar.progress(1.0, text=f"done in {report.seconds:.1f} s")
    st.session_state[REPORT_KEY] = report.model_dump_json()


def _show(report: EvalReport) -> None:
    st.subheader(
        f"Results: {escape_markdown(report.set_name)} ({report.questions} questions, backend {report.backend})"
    )
    for failure in report.ingest_failures:
        st.warning(f"Not ingested: {escape_markdown(failure)}")
    rows = summary_rows(report.summaries)
    overall = [r for r in rows if not str(r["slice"]).startswith("type:")]
    by_type = [r for r in rows if str(r["slice"]).startswith("type:")]
    st.dataframe(overall, hide_index=True)
    st.markdown("**Per question type**")
    st.dataframe(by_type, hide_index=True)
    left, right = st.columns(2)
    left.plotly_chart(_recall_chart(by_type, report.strategies))
    right.plotly_chart(_cost_chart(report))
    errors = [r for r in report.rows if r.error]
    if errors:
        st.caption(
            f"{len(errors)} run(s) failed; first: "
            + escape_markdown(f"{errors[0].question_id} [{errors[0].strategy}]: {errors[0].error}")
        )
    st.download_button(
        "Download report (JSON)", report.model_dump_json(indent=1), file_name=f"eval-{report.set_name}.json",
        mime="application/json",
    )  # fmt: skip


def _recall_chart(by_type: list[dict], strategies: tuple[str, ...]) -> go.Figure:
    figure = go.Figure()
    for strategy in strategies:
        mine = [r for r in by_type if r["strategy"] == strategy]
        figure.add_bar(name=strategy, x=[str(r["slice"]).removeprefix("type:") for r in mine],
                       y=[r["recall"] or 0.0 for r in mine])  # fmt: skip
    figure.update_layout(title="Evidence-page recall by type", barmode="group", yaxis_range=[0, 1], height=380)
    return figure


def _cost_chart(report: EvalReport) -> go.Figure:
    figure = go.Figure()
    for strategy in report.strategies:
        s = report.summary(strategy)
        if s is None:
            continue
        figure.add_scatter(x=[s.llm_calls or 0.0], y=[s.recall or 0.0], mode="markers+text", name=strategy,
                           text=[strategy], textposition="top center", marker={"size": 14})  # fmt: skip
    figure.update_layout(title="Cost (LLM calls per question) against recall", xaxis_title="LLM calls / question",
                         yaxis_title="recall", yaxis_range=[0, 1.05], height=380, showlegend=False)  # fmt: skip
    return figure


st.set_page_config(page_title="Loupe · Evaluate", page_icon="🔎", layout="wide")
st.title("Evaluate")
st.write("Run a question set with gold pages through the strategies; compare evidence recall, answers and cost.")
try:
    engine_config = _config()
    chosen = st.multiselect("Strategies", list(EVAL_STRATEGIES), default=[BASELINE_TOP5, "single_pass", "auto"])
    col_limit, col_price, col_corpus = st.columns([1, 1, 3])
    limit_value = col_limit.number_input("Questions (0 = all)", min_value=0, value=0, step=1)
    price_value = col_price.number_input(
        "Price per 1k tokens", min_value=0.0, value=DEFAULT_PRICE_PER_1K, format="%.4f"
    )
    corpus_value = _corpus_choice(col_corpus)
    _run(engine_config, chosen, int(limit_value) or None, float(price_value), corpus_value)
    if REPORT_KEY in st.session_state:
        _show(EvalReport.model_validate_json(st.session_state[REPORT_KEY]))
except LoupeError as error:
    st.error(escape_markdown(str(error)))
except Exception as error:
    from ui.services import report_unexpected

    report_unexpected(error, "The evaluation")
