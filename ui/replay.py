"""Replay for demos: a saved run walked through pass by pass (why each pass ran, what it did, the pages
it added, the confidence after it), so an analyst can show a stakeholder why the loop fired."""

from __future__ import annotations

import streamlit as st

import engine
from engine import RunResult
from ui import safe


def replay_facts(result: RunResult, upto: int) -> list[str]:
    """Plain lines describing the run after its first ``upto`` passes (1-based): each pass so far, the pages
    found so far, and the latest confidence."""
    shown = result.history[:upto]
    lines = [engine.pass_sentence(r) for r in shown]
    pages = [p for r in shown for p in r.pages_added]
    if pages:
        lines.append("Pages found so far: " + engine.pages_text(pages, several=len(result.docs) > 1) + ".")
    if shown:
        last = shown[-1]
        if upto == len(result.history):
            lines.append(f"Then Loupe stopped: {engine.stop_sentence(result)}")
        else:
            lines.append(f"After this pass Loupe was {last.confidence_after:.0%} confident and looked again.")
    return lines


def show_replay(result: RunResult, key: str) -> None:
    """A stepper over the passes of ``result``."""
    st.subheader("Replay")
    total = len(result.history)
    if total == 0:
        st.caption("This run recorded no pass to replay.")
        return
    if total == 1:
        upto = 1
        st.caption("One pass: there is nothing to step through.")
    else:
        upto = st.slider("Show the run up to pass", 1, total, total, key=key,
                         format="%d", help="Step through the passes one at a time")  # fmt: skip
    for line in replay_facts(result, upto):
        st.markdown(f"- {safe.inline(line)}")
