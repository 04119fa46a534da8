"""The understanding brick."""

from __future__ import annotations

import pytest

from engine.bricks.understanding import understand
from engine.errors import LoupeError
from engine.llm.offline import OfflineBackend


def test_understand_strips_and_parses():
    reply = understand("   What does Section 5.4 say about dropout?  \n", OfflineBackend())
    assert reply.value.original_question == "What does Section 5.4 say about dropout?"
    assert reply.value.intent == "section_retrieval" and reply.usage.calls == 1


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_empty_question_is_rejected_clearly(question):
    with pytest.raises(LoupeError, match="empty"):
        understand(question, OfflineBackend())
