"""Which questions a value reads from the evidence may answer (``compose.values.asks_for_value``)."""

from __future__ import annotations

import pytest

from engine.config import EngineConfig
from engine.run.evidence import RunState
from engine.run.value_reader import asks_for_value
from tests.run.factories import question


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Did any one-off items lift net income sharply in 2019?", False),  # yes/no
        ("Which segment saw the steepest fall in sales in 2021?", False),  # an entity, not a value
        ("Why did gross margin fall in 2022?", False),  # a reason
        ("What was net income in 2019?", True),
        ("When was the net income survey conducted?", False),  # a date
        ("When reading the ferry log, what was net income in 2019?", True),  # a clause, then a value
    ],
)
def test_only_value_questions_are_answered_by_a_value(text: str, value: bool) -> None:
    parsed = question(text=text, keywords=("net income",), asks_for_value=True)
    state = RunState(question=text, parsed=parsed, indexes=[], config=EngineConfig(), llm=None,  # type: ignore[arg-type]
                     activations=None, pdf_bytes=bytes)  # type: ignore[arg-type]  # fmt: skip
    assert asks_for_value(state) is value
