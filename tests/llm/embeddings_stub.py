"""A small OpenAI-compatible embeddings server on 127.0.0.1 (``POST /v1/embeddings``) for dense-retrieval tests.

Vectors come from ``vector(text)`` (by default: a bag of letters, deterministic). ``mode`` injects a fault:
``ok``; ``hang`` (answers after ``hang_seconds``); ``500``; ``not_json`` (200 with an HTML body);
``wrong_count`` (one vector short); ``wrong_dim`` (the second vector one dimension short); ``echo_key``
(401 whose message repeats the Authorization header). Every request's path, headers and JSON body are kept
in ``requests``; ``chunk_requests`` counts those that embedded more than one text or a text of a chunk.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def letter_vector(text: str) -> list[float]:
    """26 letter counts plus one: deterministic, and similar texts get similar vectors."""
    counts = [0.0] * 27
    for char in text.lower():
        if "a" <= char <= "z":
            counts[ord(char) - 97] += 1.0
    counts[26] = 1.0
    return counts


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def inputs(self) -> list[str]:
        value = self.body.get("input", [])
        return [value] if isinstance(value, str) else list(value)


@dataclass
class EmbeddingsStub:
    """The running stub; use as a context manager."""

    vector: Callable[[str], list[float]] = letter_vector
    mode: str = "ok"
    hang_seconds: float = 5.0
    requests: list[Recorded] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def texts_embedded(self) -> list[str]:
        with self._lock:
            return [text for r in self.requests for text in r.inputs]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()

    def reply(self, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, bytes]:
        inputs = body.get("input", [])
        inputs = [inputs] if isinstance(inputs, str) else list(inputs)
        if self.mode == "hang":
            time.sleep(self.hang_seconds)
        if self.mode == "500":
            return 500, b'{"error": {"message": "stub overloaded", "type": "stub"}}'
        if self.mode == "not_json":
            return 200, b"<html><body>a proxy's login page</body></html>"
        if self.mode == "echo_key":
            message = f"bad key: {headers.get('authorization', '')}"
            return 401, json.dumps({"error": {"message": message, "type": "stub"}}).encode()
        vectors = [self.vector(text) for text in inputs]
        if self.mode == "wrong_count":
            vectors = vectors[:-1]
        if self.mode == "wrong_dim" and len(vectors) > 1:
            vectors[1] = vectors[1][:-1]
        if self.mode == "wrong_dim" and len(vectors) == 1:
            vectors[0] = [*vectors[0], 1.0]
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        random.Random(len(data)).shuffle(data)  # servers may list them out of order: the index says which is which
        usage = {"prompt_tokens": len(inputs), "total_tokens": len(inputs)}
        return 200, json.dumps({"object": "list", "data": data, "model": body.get("model"), "usage": usage}).encode()

    def __enter__(self) -> EmbeddingsStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except json.JSONDecodeError:
                    body = {}
                headers = {k.lower(): v for k, v in self.headers.items()}
                with stub._lock:
                    stub.requests.append(Recorded(self.path, headers, body))
                if not self.path.rstrip("/").endswith("/embeddings"):
                    code, payload = 404, b'{"error": {"message": "no such route", "type": "stub"}}'
                else:
                    code, payload = stub.reply(body, headers)
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
