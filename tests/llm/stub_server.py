"""A small scriptable OpenAI-compatible chat-completions server on 127.0.0.1 for backend tests.

Script it with a list of actions, consumed one per request (the last one repeats):
``reply(obj)`` a valid completion whose content is ``json.dumps(obj)``; ``raw(text)`` a completion with
arbitrary content; ``status(code, headers)`` an error response; ``hang(seconds)`` a response that comes
too late. Every request's path, headers and JSON body are recorded.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Action:
    kind: str  # "reply" | "raw" | "status" | "hang"
    content: str = ""
    code: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    seconds: float = 0.0
    finish_reason: str = "stop"
    message: str = ""


def reply(obj: Any) -> Action:
    return Action("raw", content=json.dumps(obj))


def raw(text: str, finish_reason: str = "stop") -> Action:
    return Action("raw", content=text, finish_reason=finish_reason)


def status(code: int, headers: dict[str, str] | None = None, message: str = "") -> Action:
    return Action("status", code=code, headers=tuple((headers or {}).items()), message=message)


def hang(seconds: float) -> Action:
    return Action("hang", seconds=seconds)


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class StubServer:
    """The running stub; use as a context manager."""

    actions: list[Action] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    with_usage_in_stream: bool = True
    ignore_stream: bool = False
    """Answer a streamed request with one plain JSON completion (as some servers do)."""
    piece_seconds: float = 0.0
    """Pause after each streamed piece."""
    stream_aborted: bool = False
    """Set when the client closed a stream before its end."""
    models: tuple[str, ...] = ("stub-model",)
    """What ``GET /v1/models`` lists (an empty tuple: the route answers 404)."""
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *actions: Action) -> None:
        with self._lock:
            self.actions = list(actions)
            self.requests.clear()

    def next_action(self) -> Action:
        with self._lock:
            if not self.actions:
                return status(500)
            return self.actions.pop(0) if len(self.actions) > 1 else self.actions[0]

    def __enter__(self) -> StubServer:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models") and stub.models:
                    data = [{"id": m, "object": "model", "created": 0, "owned_by": "stub"} for m in stub.models]
                    self._send(200, {"object": "list", "data": data}, {})
                else:
                    self._send(404, {"error": {"message": "no such route", "type": "stub"}}, {})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length)
                try:
                    body = json.loads(data or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": data.decode("utf-8", "replace")}
                with stub._lock:
                    stub.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                action = stub.next_action()
                if action.kind == "hang":
                    time.sleep(action.seconds)
                    action = reply({})
                if action.kind == "status":
                    message = action.message or f"stub error {action.code}"
                    self._send(action.code, {"error": {"message": message, "type": "stub"}}, dict(action.headers))
                    return
                if body.get("stream") and not stub.ignore_stream:
                    self._stream(action.content, action.finish_reason, stub.with_usage_in_stream)
                    return
                self._send(200, _completion(body.get("model", "stub"), action.content, action.finish_reason), {})

            def _stream(self, content: str, finish_reason: str, with_usage: bool) -> None:
                """Server-sent events: the content in pieces of 7 characters, then usage, then [DONE]."""
                pieces = [content[i : i + 7] for i in range(0, len(content), 7)]
                events = [_chunk({"content": piece}, None) for piece in pieces] + [_chunk({}, finish_reason)]
                if with_usage:
                    events.append({**_chunk({}, None), "choices": [], "usage": _USAGE})
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                try:
                    for event in events:
                        self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                        self.wfile.flush()
                        time.sleep(stub.piece_seconds)
                    self.wfile.write(b"data: [DONE]\n\n")
                except (BrokenPipeError, ConnectionResetError):
                    stub.stream_aborted = True
                self.close_connection = True

            def _send(self, code: int, payload: dict[str, Any], headers: dict[str, str]) -> None:
                blob = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(blob)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(blob)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def _completion(model: str, content: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {"role": "assistant", "content": content, "refusal": None},
            }
        ],
        "usage": _USAGE,
    }


_USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


def _chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "stub",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }
