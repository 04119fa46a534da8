"""Per-user state under one namespace: ``st.session_state["loupe"]``, a dict of plain values.

Runs are stored as JSON strings (``RunResult.model_dump_json()``) so the state stays serializable.
Widgets keep their own keys (``loupe_w_*``); ``bind`` copies their values into the namespace so they
survive page switches (Streamlit drops the state of widgets a page does not draw).
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from pydantic import SecretStr

from engine import RunResult

NAMESPACE = "loupe"
MAX_RUNS = 25
WIDGET_PREFIX = "loupe_w_"


def ns() -> dict[str, Any]:
    """The app's namespace dict (created on first use)."""
    if NAMESPACE not in st.session_state:
        st.session_state[NAMESPACE] = {"runs": [], "values": {}, "conversation": [], "selected": None}
    return st.session_state[NAMESPACE]


def wkey(name: str) -> str:
    """The widget key of a namespaced setting."""
    return WIDGET_PREFIX + name


def value(name: str, default: Any = None) -> Any:
    """A namespaced setting's current value."""
    return ns()["values"].get(name, default)


def current(name: str, default: Any = None) -> Any:
    """A setting's live value: its widget's state when the widget exists, else the namespace's."""
    key = wkey(name)
    if key in st.session_state:
        return st.session_state[key]
    return ns()["values"].get(name, default)


def prime(name: str, default: Any) -> str:
    """Seed a widget's state from the namespace (or ``default``) before the widget is drawn; returns its key."""
    key = wkey(name)
    if key not in st.session_state:
        st.session_state[key] = ns()["values"].get(name, default)
    return key


def bind(name: str) -> Any:
    """Copy a drawn widget's value into the namespace and return it."""
    current = st.session_state.get(wkey(name))
    ns()["values"][name] = current
    return current


def prime_secret(name: str) -> str:
    """``prime`` for a secret (an API key): the namespace keeps it as a ``SecretStr``, masked in every dump
    of the session state; only the password widget's own state holds the plain text."""
    key = wkey(name)
    if key not in st.session_state:
        secret = ns().setdefault("secrets", {}).get(name)
        st.session_state[key] = secret.get_secret_value() if isinstance(secret, SecretStr) else ""
    return key


def bind_secret(name: str) -> str:
    """Copy a drawn password widget's value into the namespace as a ``SecretStr``; returns the plain value."""
    current = st.session_state.get(wkey(name)) or ""
    ns().setdefault("secrets", {})[name] = SecretStr(current)
    ns()["values"].pop(name, None)
    return current


def set_value(name: str, new: Any) -> None:
    """Set a setting and its widget (only call from callbacks or before the widget is drawn)."""
    ns()["values"][name] = new
    st.session_state[wkey(name)] = new


def add_run(result: RunResult) -> None:
    """Remember a run (newest first)."""
    runs = ns()["runs"]
    runs.insert(0, result.model_dump_json())
    del runs[MAX_RUNS:]


def runs() -> list[RunResult]:
    """This session's runs, newest first."""
    return [RunResult.model_validate_json(text) for text in ns()["runs"]]


def latest_run() -> RunResult | None:
    stored = ns()["runs"]
    return RunResult.model_validate_json(stored[0]) if stored else None


def label_of(labels: dict, key: object) -> str:
    """``format_func`` helper: use as ``functools.partial(label_of, labels)`` (picklable, unlike a lambda)."""
    return str(labels.get(key, key))


def conversation() -> list[RunResult]:
    """The Ask page's conversation: its turns, oldest first."""
    return [RunResult.model_validate_json(text) for text in ns().setdefault("conversation", [])]


def add_turn(result: RunResult) -> None:
    """Append a turn to the conversation."""
    ns().setdefault("conversation", []).append(result.model_dump_json())


def set_conversation(turns: list[RunResult]) -> None:
    """Replace the conversation (a reopened history thread, or [] for a new conversation)."""
    ns()["conversation"] = [t.model_dump_json() for t in turns]


def flash(message: str, kind: str = "success") -> None:
    """A message shown once, on the next run of a page (survives ``st.rerun``)."""
    ns().setdefault("flash", []).append((kind, message))


def pop_flashes() -> list[tuple[str, str]]:
    """The pending one-time messages (cleared)."""
    return ns().pop("flash", [])
