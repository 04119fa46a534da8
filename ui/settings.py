"""What the sidebar decides: the engine configuration, the strategy and an optional budget override."""

from __future__ import annotations

from dataclasses import dataclass

from engine import PRESETS, STRATEGY_NAMES, Budget, BudgetOverride, EngineConfig

STRATEGIES: tuple[str, ...] = tuple(STRATEGY_NAMES)
"""Every strategy, from the engine's registry (``auto`` first)."""
COMPARE_STRATEGIES: tuple[str, ...] = (*(s for s in STRATEGY_NAMES if s != "auto"), "auto")
"""The Compare page's order: the strategies that run, then the router that picks among them."""
BUDGET_FIELDS: tuple[tuple[str, str, float], ...] = (
    ("max_iterations", "Follow-up passes (0-4)", 1),
    ("max_llm_calls", "Language-model calls", 1),
    ("max_retrieval_calls", "Searches", 1),
    ("max_unique_queries", "Different searches", 1),
    ("max_context_tokens", "Text read (tokens)", 500),
    ("max_seconds", "Seconds", 5.0),
)
"""(field, label, step) of every budget the sidebar exposes."""


@dataclass(frozen=True)
class Settings:
    """The sidebar's choices. ``config`` may carry an API key (a SecretStr never dumped)."""

    config: EngineConfig
    strategy: str
    budget: BudgetOverride | None
    preset: str = "balanced"


def default_budget(preset: str = "balanced") -> Budget:
    """The budget the sidebar shows by default (the preset's budget for moderate questions)."""
    return PRESETS.get(preset, PRESETS["balanced"]).budgets.moderate


def build_config(
    preset: str, backend: str, base_url: str, model: str, api_key: str, strategy: str, timeout: float | None = None
) -> EngineConfig:
    """The preset's configuration with the sidebar's backend, request timeout and strategy."""
    base = PRESETS.get(preset, PRESETS["balanced"])
    update: dict = {"kind": backend}
    if backend == "openai":
        update |= {"base_url": base_url.strip() or None, "model": model.strip() or base.backend.model,
                   "endpoint_source": "visitor"}  # fmt: skip
        if api_key:
            update["api_key"] = api_key
        if timeout:
            update["timeout_seconds"] = timeout
    backend_cfg = base.backend.model_validate({**base.backend.model_dump(), **update})
    return base.model_copy(update={"backend": backend_cfg, "strategy": strategy})
