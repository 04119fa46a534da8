"""Streaming the answer's text as the model writes it (the Ask page shows it with ``st.write_stream``).

A caller that wants the text as it arrives wraps its ``answer(...)`` call in
``with stream_answer_text(callback):``; the openai backend then streams its answer requests and calls
``callback`` with each new piece of the statements' text, read from the partial JSON reply. What
streams is the model's draft: the verified answer (unsupported statements left out, citations checked)
is the run's result. Other backends ignore the callback.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

from engine.documents.text import estimate_tokens

TextSink = Callable[[str], None]

_SINK: ContextVar[TextSink | None] = ContextVar("loupe_answer_text_sink", default=None)

_TEXT_FIELD = re.compile(r'"text"\s*:\s*"((?:[^"\\]|\\.)*)(")?')


@contextmanager
def stream_answer_text(callback: TextSink) -> Iterator[None]:
    """Send the answer's text to ``callback`` piece by piece while the block runs (this thread only)."""
    token = _SINK.set(callback)
    try:
        yield
    finally:
        _SINK.reset(token)


def current_sink() -> TextSink | None:
    """The callback set by ``stream_answer_text`` in this thread, if any."""
    return _SINK.get()


def statements_text(partial_json: str) -> str:
    """The statements' text written so far in a partial JSON reply (statements joined by a space)."""
    texts = []
    for match in _TEXT_FIELD.finditer(partial_json):
        raw = match.group(1)
        if match.group(2) is None:  # still being written: drop a half-written escape
            raw = re.sub(r"\\(u[0-9a-fA-F]{0,3})?$", "", raw)
        try:
            texts.append(json.loads(f'"{raw}"'))
        except ValueError:
            texts.append(raw)
    return " ".join(t.strip() for t in texts if t.strip())


class TextDeltas:
    """Feeds a growing JSON reply in and hands out only the text not sent before."""

    def __init__(self, sink: TextSink | None) -> None:
        self.sink = sink
        self.content = ""
        self.sent = ""
        self.pieces = 0

    def feed(self, piece: str) -> None:
        self.content += piece
        self.pieces += 1
        if self.sink is None:
            return
        text = statements_text(self.content)
        if text.startswith(self.sent) and len(text) > len(self.sent):
            self.sink(text[len(self.sent) :])
            self.sent = text


def collect_stream(
    stream: Any, deltas: TextDeltas, messages: list[dict[str, str]], deadline: float | None
) -> SimpleNamespace:
    """Read a streamed chat completion to its end, feeding ``deltas``; returns a completion-shaped object.

    Past ``deadline`` (monotonic seconds) the stream is closed, which tells the server to stop
    generating (llama.cpp's server checks for a disconnect after every token), and ``StreamDeadline``
    is raised. Token usage comes from the stream's last chunk when the server sends it
    (``include_usage``); else the prompt is estimated and each streamed piece counts as one token.
    """
    plain = _plain_reply(stream)
    if plain is not None:  # a server that ignores ``stream`` and answers with one JSON completion
        return plain
    finish_reason = None
    usage = None
    try:
        for chunk in stream:
            usage = getattr(chunk, "usage", None) or usage
            for choice in getattr(chunk, "choices", None) or ():
                piece = getattr(getattr(choice, "delta", None), "content", None)
                if piece:
                    deltas.feed(piece)
                finish_reason = getattr(choice, "finish_reason", None) or finish_reason
            if deadline is not None and time.monotonic() > deadline:
                raise StreamDeadline(f"the endpoint did not finish its reply in time ({deltas.pieces} tokens so far)")
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    if usage is None:
        usage = SimpleNamespace(
            prompt_tokens=sum(estimate_tokens(m["content"]) for m in messages), completion_tokens=deltas.pieces
        )
    message = SimpleNamespace(content=deltas.content)
    return SimpleNamespace(choices=[SimpleNamespace(message=message, finish_reason=finish_reason)], usage=usage)


def _plain_reply(stream: Any) -> Any:
    """The completion of a non-streamed JSON answer to a streamed request, as attribute objects."""
    response = getattr(stream, "response", None)
    headers = getattr(response, "headers", None) or {}
    if response is None or "json" not in str(headers.get("content-type", "")):
        return None
    try:
        data = json.loads(response.read())
    finally:
        stream.close()
    return _attributes(data)


def _attributes(value: Any) -> Any:
    if isinstance(value, dict):
        return SimpleNamespace(**{str(k): _attributes(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_attributes(v) for v in value]
    return value


class StreamDeadline(Exception):
    """A streamed reply was still coming at its deadline; the stream was closed."""


__all__ = ["StreamDeadline", "TextDeltas", "collect_stream", "current_sink", "statements_text", "stream_answer_text"]
