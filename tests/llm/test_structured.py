"""The output-mode ladder: which errors are refusals, JSON extraction, memory per endpoint."""

from __future__ import annotations

import json

import pytest

from engine.llm.structured import ModeMemory, extract_json, refuses_response_format, response_format


@pytest.mark.parametrize(
    ("status", "message", "expected"),
    [
        (500, "Input should be 'text' or 'json_object' at ('body', 'response_format', 'type')", True),
        (400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported", True),
        (422, "unknown field json_schema", True),
        (500, "upstream failure 500", False),
        (503, "response_format overloaded", False),  # a 503 is temporary, whatever it says
        (400, "Requested tokens (9000) exceed context window of 8192", False),
        (None, "response_format", False),
    ],
)
def test_refusals_name_the_field(status, message, expected):
    assert refuses_response_format(status, message) is expected


def test_response_format_of_each_mode_carries_the_schema_where_it_can():
    schema = {"type": "object"}
    assert response_format("json_schema", "Plan", schema)["json_schema"]["schema"] == schema
    assert response_format("json_object", "Plan", schema) == {"type": "json_object", "schema": schema}
    assert response_format("text", "Plan", schema) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('Here you go:\n```json\n{"a": {"b": [1, 2]}}\n```\nDone.', {"a": {"b": [1, 2]}}),
        ('{broken {"a": "}"} trailing', {"a": "}"}),
        ("no json here", None),
        ("[1, 2, 3]", None),
    ],
)
def test_extract_json_finds_the_first_object(text, expected):
    found = extract_json(text)
    assert (json.loads(found) if found else None) == expected


def test_memory_steps_down_per_endpoint_and_never_back_up():
    memory = ModeMemory()
    assert memory.get("u", "m") == "json_schema"
    assert memory.lower("u", "m", "json_schema") == "json_object"
    assert memory.lower("u", "m", "json_object") == "text"
    assert memory.lower("u", "m", "json_schema") == "text", "a late refusal of a higher mode keeps the lower one"
    assert memory.lower("u", "m", "text") is None
    assert memory.get("u", "other-model") == "json_schema"
