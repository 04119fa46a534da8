"""A fault-injecting OpenAI-compatible server on 127.0.0.1, for the reliability suite.

``FaultServer(mode)`` serves ``POST /v1/chat/completions`` (and answers anything else the same
way) from a thread. Modes:

- ``ok``: a well-formed chat completion whose content is a minimal JSON instance of the JSON
  schema the request asked for (``response_format``), or ``{}`` without one.
- ``hang``: accepts the request and never answers (until the server stops).
- ``slow``: sleeps ``delay`` seconds, then answers like ``ok``.
- ``trickle``: sends headers at once, then the body one byte every ``delay`` seconds (defeats
  per-read timeouts).
- ``429``: "too many requests" with ``Retry-After: <retry_after>``.
- ``5xx``: a storm of 500/502/503/504 in turn.
- ``not_json``: 200 with an HTML body.
- ``bad_content``: a valid completion whose message content is not JSON.
- ``schema_break``: a valid completion whose content is JSON that breaks every task schema.
- ``bad_envelope``: 200 JSON that is not a chat completion at all.
- ``echo_key``: 401 whose error message echoes the Authorization header (a careless proxy).
- ``flaky``: the first ``fail_first`` requests get 503, later ones behave like ``ok``.
- ``endless``: 200, then a chat completion that never ends (filler streamed as fast as the client reads,
  no Content-Length), until the client hangs up.
- ``huge``: a well-formed chat completion whose content is ``huge_mb`` MB of text (with Content-Length).

Every request is recorded in ``server.requests`` (path, headers, parsed JSON body).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES = (
    "ok", "hang", "slow", "trickle", "429", "5xx", "not_json", "bad_content",
    "schema_break", "bad_envelope", "echo_key", "flaky", "endless", "huge",
)  # fmt: skip


@dataclass
class Recorded:
    """One request the server saw."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None
    at: float = field(default_factory=time.monotonic)


def closed_port() -> int:
    """A localhost port nothing listens on (bound, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ------------------------------------------------------------------------------------------------
# Minimal instances of a JSON schema (so "ok" replies validate whatever task was asked)
# ------------------------------------------------------------------------------------------------


def minimal_instance(schema: dict[str, Any], root: dict[str, Any] | None = None) -> Any:
    """The smallest value that satisfies ``schema`` (pydantic-style schemas: $ref/$defs, anyOf)."""
    root = root or schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return minimal_instance(root.get("$defs", root.get("definitions", {}))[name], root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [o for o in schema[key] if o.get("type") != "null"] or schema[key]
            return minimal_instance(options[0], root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {name: minimal_instance(props[name], root) for name in schema.get("required", list(props))}
    if kind == "array":
        if "prefixItems" in schema:
            return [minimal_instance(s, root) for s in schema["prefixItems"]]
        count = max(1, schema.get("minItems", 0))
        return [minimal_instance(schema.get("items", {"type": "string"}), root) for _ in range(count)]
    if kind == "string":
        if "pattern" in schema and schema["pattern"].startswith("^[A-Za-z]"):
            return "s1"
        return "x" * max(1, schema.get("minLength", 1))
    if kind == "integer":
        return int(schema.get("minimum", schema.get("exclusiveMinimum", -1) + 1))
    if kind == "number":
        return float(schema.get("minimum", 0.0))
    if kind == "boolean":
        return False
    return None


def default_content(body: dict[str, Any] | None) -> str:
    """Reply content for ``ok``: a minimal instance of the requested schema."""
    fmt = (body or {}).get("response_format") or {}
    schema = (fmt.get("json_schema") or {}).get("schema")
    if not schema:
        tools = (body or {}).get("tools") or []
        if tools:
            schema = tools[0].get("function", {}).get("parameters")
    return json.dumps(minimal_instance(schema) if schema else {})


def completion(content: str, model: str = "fault-model") -> dict[str, Any]:
    return {
        "id": "chatcmpl-fault",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


# ------------------------------------------------------------------------------------------------
# The server
# ------------------------------------------------------------------------------------------------


class FaultServer:
    """An OpenAI-compatible HTTP server that misbehaves on purpose.

    Args:
        mode: One of ``MODES``.
        delay: Seconds for ``slow`` (before replying) and ``trickle`` (between bytes).
        retry_after: Value of the ``Retry-After`` header in ``429`` mode.
        fail_first: Requests that fail before ``flaky`` recovers.
        content: Optional ``body -> content`` for ``ok``-like replies.
        huge_mb: Size of the ``huge`` reply's content, in MB.
    """

    def __init__(
        self,
        mode: str = "ok",
        *,
        delay: float = 2.0,
        retry_after: str = "1",
        fail_first: int = 1,
        content: Callable[[dict[str, Any] | None], str] | None = None,
        huge_mb: int = 100,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.delay = delay
        self.retry_after = retry_after
        self.fail_first = fail_first
        self.content = content or default_content
        self.huge_mb = huge_mb
        self.sent_bytes = 0
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, args=(0.05,), name="fault-server", daemon=True
        )

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> FaultServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    # ---- handling -------------------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # silence stderr
                return

            def do_GET(self) -> None:
                server._handle(self)

            def do_POST(self) -> None:
                server._handle(self)

        return Handler

    def _record(self, handler: BaseHTTPRequestHandler) -> tuple[Recorded, int]:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        item = Recorded(path=handler.path, headers=dict(handler.headers.items()), body=body)
        with self._lock:
            self.requests.append(item)
            return item, len(self.requests)

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        item, number = self._record(handler)
        mode = self.mode
        try:
            if mode == "flaky":
                mode = "5xx" if number <= self.fail_first else "ok"
            if mode == "hang":
                self._stop.wait(120)
                return
            if mode == "slow":
                self._stop.wait(self.delay)
                mode = "ok"
            if mode == "trickle":
                self._trickle(handler, json.dumps(completion(self.content(item.body))).encode())
            elif mode == "ok":
                self._send(handler, 200, json.dumps(completion(self.content(item.body))))
            elif mode == "429":
                body = json.dumps(
                    {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit"}}
                )
                self._send(handler, 429, body, {"Retry-After": self.retry_after})
            elif mode == "5xx":
                status = (500, 502, 503, 504)[(number - 1) % 4]
                self._send(handler, status, json.dumps({"error": {"message": f"upstream failure {status}"}}))
            elif mode == "not_json":
                self._send(handler, 200, "<html><body>502 Bad Gateway (nginx)</body></html>", ctype="text/html")
            elif mode == "bad_content":
                self._send(handler, 200, json.dumps(completion("Sure! Here is the answer: {intent: maybe")))
            elif mode == "schema_break":
                bad = json.dumps({"intent": 17, "keywords": "not-a-list", "sub_queries": [], "steps": "none"})
                self._send(handler, 200, json.dumps(completion(bad)))
            elif mode == "bad_envelope":
                self._send(handler, 200, json.dumps({"status": "queued", "result": None, "choices": "later"}))
            elif mode == "endless":
                self._endless(handler)
            elif mode == "huge":
                self._send(handler, 200, json.dumps(completion("x" * (self.huge_mb * 1_000_000))))
            elif mode == "echo_key":
                auth = {k.lower(): v for k, v in item.headers.items()}.get("authorization", "")
                message = f"Invalid API key: header was '{auth}'"
                self._send(handler, 401, json.dumps({"error": {"message": message, "code": "invalid_api_key"}}))
        except (BrokenPipeError, ConnectionResetError, OSError):
            return  # the client gave up; that is the point of several modes

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler,
        status: int,
        body: str,
        headers: dict[str, str] | None = None,
        ctype: str = "application/json",
    ) -> None:
        data = body.encode()
        handler.send_response(status)
        handler.send_header("Content-Type", ctype)
        handler.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(data)
        handler.wfile.flush()

    def _endless(self, handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.wfile.write(b'{"id": "chatcmpl-endless", "object": "chat.completion", "choices": [{"index": 0, '
                            b'"message": {"role": "assistant", "content": "')  # fmt: skip
        filler = b"all work and no play " * 3000
        while not self._stop.is_set():
            handler.wfile.write(filler)
            with self._lock:
                self.sent_bytes += len(filler)

    def _trickle(self, handler: BaseHTTPRequestHandler, data: bytes) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.flush()
        for byte in data:
            if self._stop.wait(self.delay):
                return
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
            with self._lock:
                self.sent_bytes += 1
