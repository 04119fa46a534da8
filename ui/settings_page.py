"""The Settings page: a preset, and what every setting means."""

from __future__ import annotations

import streamlit as st

from engine import PRESETS
from ui import state
from ui.settings import BUDGET_FIELDS, Settings, default_budget


def _apply_preset() -> None:
    name = st.session_state[state.wkey("preset")]
    state.ns()["values"]["preset"] = name
    defaults = default_budget(name)
    for field, _, _ in BUDGET_FIELDS:
        state.set_value(field, getattr(defaults, field))


def page(settings: Settings) -> None:
    st.title("Settings")
    st.selectbox("Preset", list(PRESETS), key=state.prime("preset", "balanced"), on_change=_apply_preset,
                 help="balanced is the default; fast spends less, thorough allows more passes.")  # fmt: skip
    rows = []
    for name, preset in PRESETS.items():
        for complexity in ("simple", "moderate", "complex"):
            b = preset.budgets.for_complexity(complexity)
            rows.append({"preset": name, "complexity": complexity, **b.model_dump()})
    st.markdown("**Default budgets per question complexity** (used unless the sidebar's override is on)")
    st.dataframe(rows, hide_index=True)
    st.markdown(
        """
**Backend.** *Offline rules* answer with deterministic, extractive rules: no network, no key, instant.
*OpenAI-compatible* sends the same tasks to any endpoint that speaks the OpenAI API; the key you type
stays in this browser session and is never written to disk or into an exported run. A failing endpoint
falls back to the offline rule for that step, and the run says so.

**Strategy.** `single_pass` retrieves once and answers (the baseline); `dispatched` lets the dispatcher
switch patterns on and runs the bounded feedback loop; `dynamic` plans sub-queries and re-plans for the
gaps; `plan_execute` runs a validated plan of dependent steps; `auto` picks the cheapest one that fits.

**Budget.** Every run is bounded: feedback passes (at most 4), LLM calls, retrieval calls, distinct
queries, evidence tokens and seconds. A run that hits a limit returns its best answer, flagged.
"""
    )
    st.caption(f"Current configuration fingerprint: `{settings.config.fingerprint()}`")
