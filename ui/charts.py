"""Plotly figures of runs (pure: no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

from engine import RunResult
from engine.present.export import budget_rows

BAR_COLOR = "#0B6E4F"
OVER_COLOR = "#C0392B"


def usage_chart(result: RunResult) -> go.Figure:
    """Share of each budget limit spent (100% = the limit), labelled 'spent / limit'."""
    rows = budget_rows(result)
    shares = [(spent / limit * 100) if limit else (100.0 if spent else 0.0) for _, spent, limit in rows]
    figure = go.Figure(
        go.Bar(
            x=shares, y=[label for label, _, _ in rows], orientation="h",
            text=[f"{spent:g} / {limit:g}" for _, spent, limit in rows], textposition="outside",
            marker_color=[OVER_COLOR if s >= 100 else BAR_COLOR for s in shares],
        )
    )  # fmt: skip
    figure.add_vline(x=100, line_dash="dash", line_color="#888")
    figure.update_layout(
        title="Budget spent (% of each limit)", height=300, margin={"l": 10, "r": 30, "t": 40, "b": 10},
        xaxis={"range": [0, max(120.0, max(shares, default=0) + 20)], "ticksuffix": "%"},
        yaxis={"autorange": "reversed"},
    )  # fmt: skip
    return figure


def confidence_chart(result: RunResult) -> go.Figure:
    """Confidence before and after each pass."""
    history = result.history
    figure = go.Figure()
    figure.add_scatter(x=[r.iteration for r in history], y=[r.confidence_after for r in history],
                       mode="lines+markers", name="after the pass", line_color=BAR_COLOR)  # fmt: skip
    figure.add_scatter(x=[r.iteration for r in history], y=[r.confidence_before for r in history],
                       mode="lines+markers", name="before the pass", line={"dash": "dot", "color": "#999"})  # fmt: skip
    figure.update_layout(title="Confidence per iteration", xaxis_title="pass", yaxis_title="confidence",
                         yaxis_range=[0, 1.05], height=320, xaxis={"dtick": 1})  # fmt: skip
    return figure


def page_scores_chart(result: RunResult) -> go.Figure:
    """Best score each retriever gave each page (grouped bars)."""
    names = {d.doc_id: d.file_name for d in result.docs}
    several = len(result.docs) > 1
    figure = go.Figure()
    for retriever in sorted({s.retriever for s in result.page_scores}):
        mine = sorted((s for s in result.page_scores if s.retriever == retriever), key=lambda s: (s.doc_id, s.page))
        labels = [f"{names.get(s.doc_id, s.doc_id[:8])[:18]} p{s.page}" if several else f"p{s.page}" for s in mine]
        top = max((s.score for s in mine), default=0.0) or 1.0  # retrievers score on different scales
        figure.add_bar(name=retriever, x=labels, y=[round(s.score / top, 3) for s in mine],
                       customdata=[s.score for s in mine], hovertemplate="%{x}: %{customdata:.3f}")  # fmt: skip
    figure.update_layout(title="Page scores per retriever (1 = the retriever's best page)", barmode="group",
                         height=340, yaxis_title="relative score", yaxis_range=[0, 1.05])  # fmt: skip
    return figure


def cost_chart(results: Sequence[RunResult], cost: str = "llm_calls") -> go.Figure:
    """Cost (LLM calls or context tokens) against evidence pages found, one point per strategy."""
    figure = go.Figure()
    for result in results:
        x = getattr(result.usage, cost)
        label: str = result.strategy_requested
        if result.strategy_requested == "auto":
            label = f"auto -> {result.strategy_effective}"
        figure.add_scatter(x=[x], y=[len(result.evidence_pages)], mode="markers+text", name=label, text=[label],
                           textposition="top center", marker={"size": 14})  # fmt: skip
    figure.update_layout(title="Cost against evidence found", xaxis_title=cost.replace("_", " "),
                         yaxis_title="evidence pages", height=380, showlegend=False)  # fmt: skip
    return figure


def reliability_chart(calibration: Sequence[Any]) -> go.Figure:
    """Mean confidence against share right per confidence bin, one line per strategy; the diagonal is a
    perfectly calibrated confidence. ``calibration``: an eval report's ``calibration`` summaries."""
    figure = go.Figure()
    figure.add_scatter(x=[0, 1], y=[0, 1], mode="lines", name="calibrated", line={"dash": "dash", "color": "#999"})
    for summary in calibration:
        bins = [b for b in summary.bins if b.n and b.mean_confidence is not None]
        figure.add_scatter(
            x=[b.mean_confidence for b in bins], y=[b.share_right for b in bins], mode="lines+markers+text",
            name=summary.strategy, text=[f"n={b.n}" for b in bins], textposition="top center",
            marker={"size": [8 + min(b.n, 40) / 2 for b in bins]},
        )  # fmt: skip
    figure.update_layout(title="Reliability: confidence against share right", xaxis_title="mean confidence of the bin",
                         yaxis_title="share right", xaxis_range=[0, 1.02], yaxis_range=[0, 1.08], height=400,
                         legend_title_text="strategy", margin={"t": 60, "b": 60})  # fmt: skip
    return figure


def selective_chart(calibration: Sequence[Any]) -> go.Figure:
    """Selective accuracy: keeping only answers at or above a confidence, the share kept (coverage)
    against the share of those that are right, one line per strategy."""
    figure = go.Figure()
    for summary in calibration:
        points = [p for p in summary.curve if p.share_right is not None]
        figure.add_scatter(
            x=[p.coverage for p in points], y=[p.share_right for p in points], mode="lines+markers",
            name=summary.strategy, customdata=[p.floor for p in points],
            hovertemplate="confidence >= %{customdata:.1f}: coverage %{x:.2f}, right %{y:.2f}",
        )  # fmt: skip
    figure.update_layout(title="Selective accuracy: coverage against share right", xaxis_title="coverage",
                         yaxis_title="share right", xaxis_range=[0, 1.02], yaxis_range=[0, 1.08], height=400,
                         legend_title_text="strategy", margin={"t": 60, "b": 60})  # fmt: skip
    return figure
