"""Reading the statements' text out of a partial JSON reply."""

from __future__ import annotations

import pytest

from engine.llm.streaming import TextDeltas, statements_text


@pytest.mark.parametrize(
    ("partial", "expected"),
    [
        ('{"statements": [{"text": "The Kes', "The Kes"),
        ('{"statements": [{"text": "A \\"quoted\\" word", "passages": [1]}, {"text": "Sec', 'A "quoted" word Sec'),
        ('{"statements": [{"text": "Half an escape \\', "Half an escape"),
        ('{"statements": [{"text": "caf\\u00e', "caf"),
        ('{"statem', ""),
    ],
)
def test_statements_text_of_a_partial_reply(partial, expected):
    assert statements_text(partial) == expected


def test_deltas_only_send_new_text():
    sent: list[str] = []
    deltas = TextDeltas(sent.append)
    for piece in ['{"statements": [{"te', 'xt": "One', " two", '", "passages": [1]}, {"text": "Th', 'ree."}]}']:
        deltas.feed(piece)
    assert "".join(sent) == "One two Three." and sent[0] == "One"
