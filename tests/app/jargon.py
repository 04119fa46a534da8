"""Scan what an AppTest page shows an analyst (everything outside the "Details" boxes) for engine names."""

from __future__ import annotations

from typing import Any

import pandas as pd
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Widget

import engine

DETAILS = "Details"


def _text_of(node: Any) -> list[str]:
    out: list[str] = []
    if isinstance(node, Widget):  # a widget shows its label and its options' labels, not its raw value
        options = getattr(node, "options", None)
        return [str(node.label), *(str(o) for o in options or ())]
    for attr in ("label", "value", "body"):
        try:
            value = getattr(node, attr, None)
        except Exception:  # some elements raise for attributes they do not carry
            continue
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, pd.DataFrame | pd.io.formats.style.Styler):
            frame = value.data if hasattr(value, "data") else value
            out += [str(c) for c in frame.columns] + [str(v) for v in frame.to_numpy().ravel()]
    return out


def analyst_texts(at: AppTest, sidebar: bool = False) -> str:
    """Every text of the main area (and the sidebar when asked), skipping "Details" expanders and popovers."""
    texts: list[str] = []

    def walk(node: Any) -> None:
        kind = getattr(node, "type", "")
        label = getattr(node, "label", "") if kind == "expander" else ""
        if kind == "popover":
            label = node.proto.popover.label
        if label == DETAILS:
            return
        texts.extend(_text_of(node))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    if sidebar:
        walk(at.sidebar)
    return "\n".join(texts)


def jargon(text: str) -> list[str]:
    """The snake_case identifiers and internal engine names in ``text``."""
    found = engine.snake_case_words(text)
    found += [name for name in engine.INTERNAL_NAMES if name.lower() in text.lower()]
    return found
