"""Evaluate: run a question set through the strategies and compare recall, answers and cost."""

from __future__ import annotations

import streamlit as st

from engine import BACKEND_NAMES, EngineConfig, LoupeError, backend_label
from engine.eval import BASELINE_TOP5, DEFAULT_PRICE_PER_1K, EVAL_STRATEGIES, EvalReport
from ui import evaluate, safe


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
    corpus_value = evaluate.corpus_choice(col_corpus)
    evaluate.run(engine_config, chosen, int(limit_value) or None, float(price_value), corpus_value)
    if evaluate.REPORT_KEY in st.session_state:
        evaluate.show(EvalReport.model_validate_json(st.session_state[evaluate.REPORT_KEY]))
except LoupeError as error:
    st.error(safe.inline(str(error)))
except Exception as error:
    from ui.services import report_unexpected

    report_unexpected(error, "The evaluation")
