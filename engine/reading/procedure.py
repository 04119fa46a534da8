"""Procedures: "How do I charge the drone?" is answered by the numbered steps of the section that gives them.

Manuals print a task as numbered steps ("1 Connect the cradle ... 2 Rest the drone on it ... 3 Remove ...");
the passages that score best for the question are often one or two of them, out of order. ``asks_procedure``
reads whether a question asks how to do something; ``numbered_steps`` finds the run of steps numbered from
1 in a section's text, in order, each step's text up to the next number. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ASKS = re.compile(
    r"^\W*how\s+(?:do|can|should|would|could)\s+(?:i|you|we|one|users?)\s+(?!know\b|tell\b|find out\b)"
    r"|^\W*how\s+to\b|\bwhat\s+are\s+the\s+steps\b|\bwhich\s+steps\b|\bsteps?\s+(?:to|for)\b|\bprocedure\s+(?:to|for)\b",
    re.I,
)
"""A question asking how to do a task ("How do I pair the remote?", "What are the steps to reset it?"); not one
asking how to tell or know something, which a fact answers."""
_STEP = re.compile(r"(?:^|(?<=[.!?:])\s+|\n)(?:step\s+)?(?P<n>[1-9]\d?)[.)]?\s+(?=[A-Z])", re.I)
_NOTE = re.compile(r"\s*[•●▪◆]\s|\n\s*(?:note|tip|caution|warning)\b", re.I)
MIN_STEPS = 2
"""A procedure has at least two steps; one numbered sentence is a list item or a heading's number."""


@dataclass(frozen=True)
class Step:
    number: int
    text: str


def asks_procedure(question: str) -> bool:
    """Whether ``question`` asks how to carry out a task."""
    return bool(_ASKS.search(question))


def numbered_steps(text: str) -> list[Step]:
    """The steps numbered 1, 2, 3, ... in ``text``, in order (the first run from 1; [] when fewer than two)."""
    marks = list(_STEP.finditer(text))
    steps: list[Step] = []
    for n, mark in enumerate(marks):
        number = int(mark.group("n"))
        if number != len(steps) + 1:
            if steps:
                break
            continue
        end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
        body = _NOTE.split(text[mark.end() : end], maxsplit=1)[0]  # a note after the last step is not a step
        steps.append(Step(number, " ".join(body.split())))
    return steps if len(steps) >= MIN_STEPS else []


def holds_step(text: str) -> bool:
    """Whether ``text`` holds a numbered step ("3 Remove the drone ...")."""
    return _STEP.search(text) is not None


def steps_statement(steps: list[Step]) -> str:
    """The steps one per line, numbered as printed."""
    return "\n".join(f"{s.number}. {s.text}" for s in steps)
