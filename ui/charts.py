"""Plotly figures of runs (pure: no Streamlit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go

import engine
from engine import RunResult

BAR_COLOR = "#0B6E4F"
OVER_COLOR = "#C0392B"
_RETRIEVERS = {
    "keyword": "keyword search",
    "dense": "search by meaning",
    "toc": "table of contents",
    "fused": "combined search",
    "two_hop": "following references",
    "listing": "list items",
    "adaptive": "tables re-read",
    "value": "figure read",
    "continuation": "next page",
}


def usage_chart(result: RunResult) -> go.Figure:
    """Share of each allowance used (100% = the limit), labelled 'used of allowed' inside the plot area; the
    axis ends at 100% unless an allowance was overrun (a run may overshoot by its last step)."""
    rows = engine.budget_lines(result)
    shares = [(spent / limit * 100) if limit else (100.0 if spent else 0.0) for _, spent, limit in rows]
    figure = go.Figure(
        go.Bar(
            x=shares, y=[label for label, _, _ in rows], orientation="h",
            text=[f"{spent:g} of {limit:g}" for _, spent, limit in rows], textposition="auto",
            hovertemplate="%{y}: %{text} (%{x:.0f}%)<extra></extra>",
            marker_color=[OVER_COLOR if s >= 100 else BAR_COLOR for s in shares],
        )
    )  # fmt: skip
    figure.add_vline(x=100, line_dash="dash", line_color="#888")
    figure.update_layout(
        title="Allowance used (% of each limit)", height=300, margin={"l": 10, "r": 30, "t": 40, "b": 10},
        xaxis={"range": [0, max(100.0, max(shares, default=0)) * 1.02], "ticksuffix": "%"},
        yaxis={"autorange": "reversed"},
    )  # fmt: skip
    return figure


def confidence_chart(result: RunResult) -> go.Figure:
    """Confidence after each pass (0-100%), one bar per pass named as the narration names it; a run of one
    pass is one labelled bar, not a lone dot on an empty axis."""
    history = result.history
    names = [engine.pass_title(r) for r in history]
    figure = go.Figure(
        go.Bar(x=names, y=[r.confidence_after * 100 for r in history], marker_color=BAR_COLOR,
               text=[f"{r.confidence_after:.0%}" for r in history], textposition="auto", name="after the pass")
    )  # fmt: skip
    figure.update_layout(title="Confidence after each pass", yaxis={"range": [0, 100], "ticksuffix": "%"},
                         height=320, bargap=0.5 if len(history) > 1 else 0.8, xaxis={"type": "category"})  # fmt: skip
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
        figure.add_bar(name=_RETRIEVERS.get(retriever, retriever.replace("_", " ")), x=labels, y=[round(s.score / top, 3) for s in mine],
                       customdata=[s.score for s in mine], hovertemplate="%{x}: %{customdata:.3f}")  # fmt: skip
    figure.update_layout(title="Page scores per search (1 = that search's best page)", barmode="group",
                         height=340, yaxis_title="relative score", yaxis_range=[0, 1.05])  # fmt: skip
    return figure


_SYMBOLS = ("circle", "diamond", "square", "triangle-up", "x", "star")
_COSTS = {"llm_calls": "language-model calls", "context_tokens": "text read (tokens)"}


def cost_chart(results: Sequence[RunResult], cost: str = "llm_calls") -> go.Figure:
    """Cost (language-model calls or text read) against evidence pages found, one point per strategy. The
    strategies are named in the legend, not beside the points: points of equal cost would print their
    names over each other."""
    figure = go.Figure()
    for n, result in enumerate(results):
        x = getattr(result.usage, cost)
        label = engine.strategy_label(result.strategy_requested)
        if result.strategy_requested == "auto":
            label = f"Automatic: {engine.strategy_label(result.strategy_effective).lower()}"
        figure.add_scatter(x=[x], y=[len(result.evidence_pages)], mode="markers", name=label,
                           marker={"size": 14, "symbol": _SYMBOLS[n % len(_SYMBOLS)]},
                           hovertemplate=f"{label}: %{{x}} · %{{y}} page(s)<extra></extra>")  # fmt: skip
    figure.update_layout(title="Cost against evidence found", xaxis_title=_COSTS.get(cost, cost.replace("_", " ")),
                         yaxis_title="evidence pages", height=380, showlegend=True,
                         legend={"orientation": "h", "y": -0.25})  # fmt: skip
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
