"""Structured output across OpenAI-compatible servers: a ladder of request modes, chosen per endpoint.

Servers differ in what ``response_format`` they accept. OpenAI takes a strict ``json_schema``;
llama-cpp-python's server rejects that type (HTTP 500 naming the field) but constrains the reply with a
grammar when the schema rides on ``{"type": "json_object", "schema": ...}``; some servers accept no
``response_format`` at all. The backend starts at the top of the ladder and steps down only when the
server refuses the field itself (HTTP 400, or a 500 whose message names ``response_format``); a
timeout or a plain 500 never changes the mode. The mode that worked is remembered per endpoint
(base URL and model) for the life of the process, so the refusal is paid once.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal

from pydantic import BaseModel

OutputMode = Literal["json_schema", "json_object", "text"]
LADDER: tuple[OutputMode, ...] = ("json_schema", "json_object", "text")

_REFUSAL_WORDS = ("response_format", "json_schema", "json_object")
"""A refusal names the field or one of its types; a generic 4xx/5xx message does not."""


def response_format(mode: OutputMode, name: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The ``response_format`` request field for ``mode`` (None: the field is left out)."""
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": False}}
    if mode == "json_object":
        return {"type": "json_object", "schema": schema}
    return None


def refuses_response_format(status: int | None, message: str) -> bool:
    """True when an error answer means "this server does not take that response_format"."""
    if status not in (400, 422, 500):
        return False
    lowered = message.lower()
    return any(word in lowered for word in _REFUSAL_WORDS)


def next_mode(mode: OutputMode) -> OutputMode | None:
    """The mode below ``mode`` on the ladder, or None at the bottom."""
    position = LADDER.index(mode)
    return LADDER[position + 1] if position + 1 < len(LADDER) else None


def extract_json(text: str) -> str | None:
    """The first complete JSON object in ``text`` (prose, code fences and trailing words around it
    are ignored), or None when there is none."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return json.dumps(value)
        start = text.find("{", start + 1)
    return None


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema a request carries for ``model`` (pydantic's, titles dropped to save tokens)."""
    return _without_titles(model.model_json_schema())


def _without_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _without_titles(value) for key, value in node.items() if key != "title"}
    if isinstance(node, list):
        return [_without_titles(value) for value in node]
    return node


class ModeMemory:
    """The output mode each endpoint accepted, shared by every backend instance in the process."""

    def __init__(self) -> None:
        self._modes: dict[tuple[str, str], OutputMode] = {}
        self._lock = threading.Lock()

    def get(self, base_url: str, model: str) -> OutputMode:
        with self._lock:
            return self._modes.get((base_url, model), LADDER[0])

    def lower(self, base_url: str, model: str, refused: OutputMode) -> OutputMode | None:
        """Record that the endpoint refused ``refused``; return the mode to try next (None: none left).

        Another thread may have stepped down already: the lower of the two is kept.
        """
        below = next_mode(refused)
        if below is None:
            return None
        with self._lock:
            current = self._modes.get((base_url, model), LADDER[0])
            chosen = below if LADDER.index(below) > LADDER.index(current) else current
            self._modes[(base_url, model)] = chosen
            return chosen

    def clear(self) -> None:
        with self._lock:
            self._modes.clear()


MODES = ModeMemory()
"""The process-wide memory of which output mode each endpoint accepts."""


__all__ = [
    "LADDER",
    "MODES",
    "ModeMemory",
    "OutputMode",
    "extract_json",
    "next_mode",
    "refuses_response_format",
    "response_format",
    "schema_of",
]
