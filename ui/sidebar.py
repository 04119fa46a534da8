"""The sidebar drawn on every page: backend, strategy and budgets."""

from __future__ import annotations

from typing import Any

import streamlit as st

from engine import (
    BACKEND_NAMES,
    PRESETS,
    STRATEGY_NAMES,
    BudgetOverride,
    backend_label,
    backend_uses_network,
    strategy_label,
    strategy_summary,
    typed_endpoints_allowed,
)
from ui import state
from ui.settings import BUDGET_FIELDS, Settings, build_config, default_budget


def _strategy_choice(name: str) -> str:
    """How a strategy is listed: its display name and what it does."""
    return f"{strategy_label(name)}: {strategy_summary(name)}"


def _reset_budget() -> None:
    defaults = default_budget(state.value("preset", "balanced"))
    for name, _, _ in BUDGET_FIELDS:
        state.set_value(name, getattr(defaults, name))
    state.set_value("use_override", False)


def _backend() -> tuple[str, str, str, str, float | None]:
    kind = st.radio("Backend", list(BACKEND_NAMES), key=state.prime("backend", "offline"), horizontal=True,
                    format_func=backend_label,
                    help="Offline needs no network. OpenAI-compatible works with OpenAI, Azure, vLLM, Ollama...")  # fmt: skip
    state.bind("backend")
    if not backend_uses_network(kind):
        return kind, "", "", "", None
    base_url = ""
    if typed_endpoints_allowed():
        base_url = st.text_input("Base URL", key=state.prime("base_url", ""),
                                 placeholder="empty: the server's endpoint",
                                 help="An endpoint you type needs your own API key below.")  # fmt: skip
        state.bind("base_url")
    else:
        st.caption("This server answers with its own endpoint; it does not let visitors choose another.")
    model = st.text_input("Model", key=state.prime("model", ""), placeholder="the endpoint's only model",
                          help="Leave empty when the endpoint serves a single model (a local server does).")  # fmt: skip
    timeout = st.number_input("Request timeout (s)", min_value=1.0, step=5.0, key=state.prime("timeout", 20.0),
                              help="Longest one model request may take; the question's seconds budget bounds the run.")  # fmt: skip
    api_key = st.text_input("API key", type="password", key=state.prime_secret("api_key"),
                            help="Kept in this browser session only (masked in its state); never written anywhere. "
                            "Empty: the server's key, which only goes to the server's endpoint.")  # fmt: skip
    state.bind_secret("api_key")
    state.bind("model")
    state.bind("timeout")
    if base_url.strip() and not api_key:
        st.warning("A Base URL you type needs your own API key: the server's key only goes to its own endpoint.")
    return kind, base_url, model, api_key, float(timeout)


def _budget(preset: str) -> BudgetOverride | None:
    defaults = default_budget(preset)
    with st.expander("Budget", expanded=False):
        use = st.toggle("Use budget override", key=state.prime("use_override", False),
                        help="Off: each question gets the default budget for its complexity.")  # fmt: skip
        state.bind("use_override")
        values = {}
        for name, label, step in BUDGET_FIELDS:
            default = getattr(defaults, name)
            kwargs: dict[str, Any] = {"min_value": 0, "max_value": 4} if name == "max_iterations" else {"min_value": 0}
            if isinstance(default, float):
                kwargs = {"min_value": 0.0}
            values[name] = st.number_input(f"{label} (default {default:g})", step=step, disabled=not use,
                                           key=state.prime(name, default), **kwargs)  # fmt: skip
            state.bind(name)
        st.button("Reset budget to defaults", on_click=_reset_budget, key="loupe_reset_budget")
    return BudgetOverride(**values) if use else None


def render_sidebar() -> Settings:
    """Draw the shared sidebar and return the settings it describes."""
    with st.sidebar:
        st.markdown("### Loupe settings")
        preset = state.value("preset", "balanced")
        if preset not in PRESETS:
            preset = "balanced"
        kind, base_url, model, api_key, timeout = _backend()
        strategy = st.selectbox("Approach", STRATEGY_NAMES, key=state.prime("strategy", "auto"),
                                format_func=_strategy_choice,
                                help="Automatic picks the cheapest approach that fits the question.")  # fmt: skip
        state.bind("strategy")
        budget = _budget(preset)
        st.caption(f"Preset: {preset} (change it on the Settings page)")
    config = build_config(preset, kind, base_url, model, api_key, strategy, timeout=timeout)
    return Settings(config=config, strategy=strategy, budget=budget, preset=preset)
