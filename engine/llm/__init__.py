"""The backend registry and factory.

``BACKENDS`` names every backend: adding one is a module with a class implementing
``engine.contracts.Backend`` (built from a ``BackendConfig``) plus one line here. ``make_backend`` builds
the configured one; a network backend comes wrapped in ``FallbackBackend`` with the offline rules as
its fallback, so a failing step is done offline and the run records why. Backend modules are imported
on first use: ``import engine.llm`` stays cheap and never loads the ``openai`` package.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from engine.config import BackendConfig
from engine.contracts import Backend
from engine.errors import BackendUnavailableError
from engine.llm.fallback import FallbackBackend
from engine.llm.network import allow_network, ensure_network, is_loopback, network_allowed


@dataclass(frozen=True)
class BackendSpec:
    """Where a backend class lives ("module:Class"), its label for people, and whether it uses the network."""

    target: str
    label: str
    network: bool = False


BACKENDS: dict[str, BackendSpec] = {
    "offline": BackendSpec("engine.llm.offline:OfflineBackend", "Offline rules"),
    "openai": BackendSpec("engine.llm.openai_compat:OpenAIBackend", "OpenAI-compatible endpoint", network=True),
}
"""Every backend by name, in the order choices are shown."""

BACKEND_NAMES: tuple[str, ...] = tuple(BACKENDS)
RULES_BACKEND = "offline"
"""The backend that stands in when a network backend fails a step or the LLM-call budget is spent."""


def backend_label(name: str) -> str:
    """The label a person sees for backend ``name`` (the name itself when unknown)."""
    spec = BACKENDS.get(name)
    return spec.label if spec else name


def backend_uses_network(name: str) -> bool:
    """Whether backend ``name`` reaches an endpoint (and so needs a URL, a model and usually a key)."""
    spec = BACKENDS.get(name)
    return bool(spec and spec.network)


def _build(name: str, config: BackendConfig) -> Backend:
    spec = BACKENDS.get(name)
    if spec is None:
        raise BackendUnavailableError(f"unknown backend {name!r}; choose one of {', '.join(BACKEND_NAMES)}")
    module_name, _, class_name = spec.target.partition(":")
    backend_class = getattr(importlib.import_module(module_name), class_name)
    backend: Backend = backend_class(config)
    return backend


def rules_backend() -> Backend:
    """The offline rules: no network, no model, no cost."""
    return _build(RULES_BACKEND, BackendConfig(kind=RULES_BACKEND))


def make_backend(config: BackendConfig) -> Backend:
    """Build the backend ``config`` names; a network backend falls back to the offline rules step by step.

    Raises:
        BackendUnavailableError: an unknown backend, or a network backend while the network is switched off.
    """
    backend = _build(config.kind, config)
    if BACKENDS[config.kind].network:
        return FallbackBackend(backend, rules_backend())
    return backend


__all__ = [
    "BACKENDS",
    "BACKEND_NAMES",
    "RULES_BACKEND",
    "BackendSpec",
    "FallbackBackend",
    "allow_network",
    "backend_label",
    "backend_uses_network",
    "ensure_network",
    "is_loopback",
    "make_backend",
    "network_allowed",
    "rules_backend",
]
