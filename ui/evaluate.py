"""The Evaluate page's parts: choosing a question set (bundled, uploaded, or the personal set built by
marking runs), running it with progress, and showing the report with readable columns and charts."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

import engine
from engine import EngineConfig
from ui import safe, services, state
from ui.charts import reliability_chart, selective_chart

Summary = Any
"""engine.eval's Summary (the UI reaches the evaluation only through engine's public API)."""

REPORT_KEY = "eval_report_json"
QUESTIONS_KEY = "eval_questions"
"""The evaluated set's questions by id ({id: {"question", "docs"}}), for the per-question table."""
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
    "llm_calls": "language-model calls",
    "retrieval_calls": "searches",
    "unique_queries": "different searches",
    "context_tokens": "text read (tokens)",
    "exhaustion_rate": "share that exhausted a budget",
    "latency_p50_ms": "median latency (ms)",
    "latency_p95_ms": "95th percentile latency (ms)",
    "cost_per_correct": "cost per correct answer",
    "llm_calls_per_correct": "language-model calls per correct answer",
}
"""Summary field -> the column name a reader sees (every metric, in the report's order)."""


_SYMBOLS = ("circle", "diamond", "square", "triangle-up", "x", "star")

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
    st.session_state[QUESTIONS_KEY] = {q.id: {"question": q.question, "docs": list(q.docs)} for q in eval_set.questions}


def show(report: Any) -> None:
    st.subheader(f"Results: {safe.inline(report.set_name)} ({report.questions} questions, backend {report.backend})")
    for failure in report.ingest_failures:
        st.warning(f"Not ingested: {safe.inline(failure)}")
    overall = [s for s in report.summaries if not s.slice.startswith("type:")]
    by_type = [s for s in report.summaries if s.slice.startswith("type:")]
    st.dataframe(metric_table(overall), width="stretch")  # one column per strategy: fits any screen width
    st.markdown("**Per question**")
    questions = st.session_state.get(QUESTIONS_KEY, {})
    st.dataframe(question_rows(report, questions), hide_index=True, width="stretch",
                 column_config={"answer": st.column_config.TextColumn(width="large")})  # fmt: skip
    _open_on_ask(report, questions)
    with st.expander("Per question type"):
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


def _label(strategy: str) -> str:
    return engine.strategy_label(strategy) if strategy in engine.STRATEGY_LABELS else strategy.replace("_", " ")


def metric_table(summaries: list[Summary]) -> pd.DataFrame:
    """The overall summary turned on its side: one row per metric, one column per strategy (a row per
    strategy with 19 metric columns ran off the side of a 1440-pixel screen)."""
    rows = readable_rows(summaries)
    columns = {
        _label(str(r["strategy"]))
        + ("" if r["questions of"] == "all" else f" ({str(r['questions of']).replace('_', ' ')})"): r
        for r in rows
    }
    metrics = [label for label in COLUMN_LABELS.values()]
    data = {name: [_cell(row.get(m)) for m in metrics] for name, row in columns.items()}
    return pd.DataFrame(data, index=metrics)


def _cell(value: object) -> str:
    return "" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def verdict(row: Any) -> str:
    """Right or wrong for a reader: the answer and the cited pages against the gold."""
    if row.error:
        return "failed to run"
    if row.correct is None and row.wrong is None:
        return "not scored"
    if row.unanswerable:
        return "right: declined" if row.correct else "wrong: answered an unanswerable question"
    if row.wrong:
        reasons = (["answer does not match"] if row.answer_match is False else []) + (
            ["no gold page cited"] if row.recall == 0.0 else []
        )
        return "wrong: " + ", ".join(reasons)
    return "right"


def question_rows(report: Any, questions: dict[str, dict[str, Any]]) -> list[dict[str, object]]:
    """One row per (question, strategy): what was asked, how, the pages cited against the gold pages, the
    answer, right or wrong, and the confidence."""
    return [
        {
            "question": questions.get(r.question_id, {}).get("question", r.question_id),
            "approach": _label(r.strategy),
            "pages cited": ", ".join(map(str, r.cited_pages)) or "none",
            "gold pages": ", ".join(map(str, r.gold_pages)) or "none (unanswerable)",
            "answer": safe.clip(r.answer, 200),
            "right or wrong": verdict(r),
            "confidence": f"{r.confidence:.0%}",
        }
        for r in report.rows
    ]


def _ask_again(question: str, doc_ids: list[str], strategy: str) -> None:
    state.set_value("docs", doc_ids)
    if strategy in engine.STRATEGY_LABELS:
        state.set_value("strategy", strategy)
    state.set_conversation([])
    state.ns()["pending"] = question


def _open_on_ask(report: Any, questions: dict[str, dict[str, Any]]) -> None:
    """A way into any question's run: asked again on the Ask page, with its documents and approach, where
    its whole audit trail and evidence show."""
    keys = [f"{r.question_id}|{r.strategy}" for r in report.rows]
    if not keys or not questions:
        return
    labels = {f"{r.question_id}|{r.strategy}": f"{safe.clip(questions.get(r.question_id, {}).get('question', r.question_id), 90)}"
              f" · {_label(r.strategy)}" for r in report.rows}  # fmt: skip
    pick, go_button = st.columns([4, 1], vertical_alignment="bottom")
    chosen = pick.selectbox("See how a question was answered", keys, key="loupe_eval_open",
                            format_func=partial(state.label_of, labels))  # fmt: skip
    if chosen is None:
        return
    question_id, strategy = chosen.split("|", 1)
    entries = services.entries()
    wanted = questions.get(question_id, {})
    doc_ids = [e.doc_id for d in wanted.get("docs", []) for e in entries[:1000]
               if d in (e.file_name, e.doc_id) or (len(d) >= 8 and e.doc_id.startswith(d))]  # a set names by file or id  # fmt: skip
    go_button.button("Open on the Ask page", key="loupe_eval_open_go", disabled=not doc_ids, width="stretch",
                     on_click=_ask_again, args=(wanted.get("question", ""), doc_ids, strategy),
                     help="Asks the question again over its documents with this approach, with its whole trail")  # fmt: skip
    if st.session_state.get("loupe_eval_open_go"):
        st.switch_page("pages/0_Ask.py")


def recall_chart(by_type: list[Summary], strategies: tuple[str, ...]) -> go.Figure:
    figure = go.Figure()
    for strategy in strategies:
        mine = [s for s in by_type if s.strategy == strategy]
        figure.add_bar(
            name=_label(strategy), x=[s.slice.removeprefix("type:") for s in mine], y=[s.recall or 0.0 for s in mine]
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
        figure.add_scatter(x=[s.llm_calls or 0.0], y=[s.recall or 0.0], mode="markers", name=_label(strategy),
                           marker={"size": 14, "symbol": _SYMBOLS[len(xs) % len(_SYMBOLS)]},
                           cliponaxis=False)  # names in the legend: points of equal cost printed them over each other  # fmt: skip
    span = max(xs, default=1.0) or 1.0
    figure.update_layout(title="Cost against recall (one point per strategy)", xaxis_title="language-model calls per question",
                         yaxis_title="evidence recall", yaxis_range=[0, 1.1], xaxis_range=[-0.15 * span, 1.25 * span],
                         legend_title_text="strategy", showlegend=True, height=400,
                         margin={"t": 60, "b": 60, "l": 60, "r": 20})  # fmt: skip
    return figure
