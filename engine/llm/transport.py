"""Sending one request to an OpenAI-compatible endpoint: deadlines, bounded retries, usage, reasons.

Each attempt has a wall-clock deadline (the per-request timeout, cut to what the step has left): a
reply trickling in byte by byte would otherwise never trip the client's per-read timeout. Timeouts,
connection errors, 408/409/429 and 5xx are retried at most ``max_retries`` times, never past the
step's deadline; a server refusing the ``response_format`` field is not retried (the caller changes
the request instead). Every request sent is counted; tokens come from the reply's usage field, and a
request abandoned at its deadline counts the prompt tokens the server was sent, by estimate.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import ValidationError

from engine.config import BackendConfig
from engine.contracts import LlmUsage
from engine.documents.text import estimate_tokens
from engine.errors import BackendError
from engine.llm.network import ensure_network
from engine.llm.streaming import StreamDeadline
from engine.llm.structured import refuses_response_format

MIN_CALL_SECONDS = 1.0
"""A request with less time than this left is not sent (it would only be abandoned)."""

_RETRYABLE = (408, 409, 429)


class InvalidReply(Exception):
    """The endpoint answered, but not with a valid instance of the schema."""


class CutOff(InvalidReply):
    """The reply stopped at its ``max_tokens`` cap (a runaway reply: not retried)."""


class Deadline(Exception):
    """A request outlived its wall-clock deadline, or the step had no time left to send one."""


@dataclass
class Tally:
    """Requests and tokens spent on one step, kept across retries and failures."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def usage(self, seconds: float) -> LlmUsage:
        return LlmUsage(calls=max(1, self.calls), prompt_tokens=self.prompt_tokens,
                        completion_tokens=self.completion_tokens, seconds=round(seconds, 4))  # fmt: skip

    def add_reply(self, reply: Any) -> None:
        usage = getattr(reply, "usage", None)
        self.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
        self.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)


class Sender(Protocol):
    """What ``request_with_retries`` needs of the backend."""

    config: BackendConfig

    def _drop_client(self) -> None: ...


def request_with_retries(
    sender: Sender,
    call: Callable[[], Any],
    tally: Tally,
    deadline: float | None,
    prompt: Sequence[dict[str, str]] | None = None,
    count_call: bool = True,
) -> Any:
    """``call()`` under the step's ``deadline`` with bounded retries; counts every request in ``tally``."""
    import openai

    retries = sender.config.max_retries
    for attempt in range(retries + 1):
        limit = seconds_left(sender.config.timeout_seconds, deadline)
        if count_call:
            tally.calls += 1
        try:
            reply = within_deadline(sender, call, limit)
        except (
            openai.APITimeoutError,
            openai.APIConnectionError,
            Deadline,
            StreamDeadline,
            openai.APIStatusError,
        ) as exc:
            if prompt is not None and isinstance(exc, Deadline | StreamDeadline | openai.APITimeoutError):
                tally.prompt_tokens += sum(estimate_tokens(m["content"]) for m in prompt)
            status = getattr(exc, "status_code", None)
            if isinstance(exc, openai.APIStatusError) and refuses_response_format(status, f"{exc} {exc.body}"):
                raise
            if attempt == retries or (status is not None and status not in _RETRYABLE and status < 500):
                raise
            if _limit_of(exc) is not None:  # an oversized or endless reply would only come again
                raise
            wait = min(_retry_after(exc, attempt), sender.config.timeout_seconds)
            if deadline is not None and time.monotonic() + wait + MIN_CALL_SECONDS >= deadline:
                raise
            time.sleep(wait)
            continue
        if count_call:
            tally.add_reply(reply)
        return reply
    raise AssertionError("unreachable")  # pragma: no cover


def _limit_of(error: BaseException) -> BaseException | None:
    """``bounded_http.limit_of``, imported when an endpoint's error is looked at: offline runs never load the
    HTTP client (``httpx2``), which the bounded transport subclasses."""
    from engine.llm.bounded_http import limit_of

    return limit_of(error)


def openai_client(config: BackendConfig) -> Any:
    """An ``openai`` client for ``config``'s endpoint, with the key ``credentials()`` allows there and bounded
    replies; it never retries by itself (retries are ``request_with_retries``': the client's honour Retry-After
    up to 120 s).

    Raises:
        EndpointPolicyError: the key rules forbid the request. BackendUnavailableError: the network is switched off.
    """
    url, key = config.credentials()  # whose key may go to which endpoint
    ensure_network(url or "https://api.openai.com/v1")
    import openai

    from engine.llm.bounded_http import bounded_http_client

    return openai.OpenAI(
        api_key=key, base_url=url, timeout=config.timeout_seconds, max_retries=0,
        http_client=bounded_http_client(config.max_reply_bytes, config.timeout_seconds),
    )  # fmt: skip


def seconds_left(timeout: float, deadline: float | None) -> float:
    """Seconds one attempt may take: the timeout, cut to the step's deadline.

    Raises:
        Deadline: less than ``MIN_CALL_SECONDS`` is left.
    """
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left < MIN_CALL_SECONDS:
        raise Deadline(f"the seconds budget left {max(0.0, left):.1f} s for this step, too little for a model call")
    return min(timeout, left)


def within_deadline(sender: Sender, call: Callable[[], Any], seconds: float) -> Any:
    """``call()`` in a worker thread; abandoned (and the client dropped) after ``seconds``."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:
            box["error"] = exc

    worker = threading.Thread(target=target, name="openai-request", daemon=True)
    worker.start()
    worker.join(seconds + 0.25)
    if worker.is_alive():
        sender._drop_client()
        raise Deadline(f"the endpoint did not finish its reply within {seconds:.1f} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _retry_after(exc: BaseException, attempt: int) -> float:
    """Seconds to wait before the next attempt: Retry-After when given, else exponential backoff."""
    response = getattr(exc, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(header)) if header is not None else 0.5 * 2**attempt
    except ValueError:
        return 0.5 * 2**attempt


def short_validation(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in errors[:6])
    return str(exc)[:300]


def describe(exc: BaseException) -> str:
    """A short description of why a step could not be done on the endpoint (the caller scrubs keys)."""
    import openai

    if isinstance(exc, BackendError | Deadline | InvalidReply | StreamDeadline):
        return str(exc)
    limit = _limit_of(exc)
    if limit is not None:  # a reply over its byte cap or past its deadline (BoundedTransport)
        return str(limit)
    if isinstance(exc, openai.APITimeoutError):
        return "the endpoint did not answer within the timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "could not connect to the endpoint"
    if isinstance(exc, openai.RateLimitError):
        return "the endpoint kept rate-limiting the requests (HTTP 429)"
    if isinstance(exc, openai.APIStatusError):
        detail = " ".join(_server_message(exc).split())[:200]
        return f"the endpoint answered HTTP {exc.status_code}" + (f": {detail}" if detail else "")
    return f"{type(exc).__name__}: {str(exc)[:200]}"


def _server_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        message = error.get("message") if isinstance(error, dict) else error
        return str(message or "")
    return str(body or "")


__all__ = [
    "MIN_CALL_SECONDS",
    "Deadline",
    "InvalidReply",
    "Tally",
    "describe",
    "openai_client",
    "request_with_retries",
    "short_validation",
]


class ClientSlot:
    """One lazily built ``openai`` client for an endpoint, shared by a backend's threads; dropped after an
    abandoned request (a fresh one serves the next) and closed in the background."""

    def __init__(self, config: BackendConfig) -> None:
        self._config = config
        self._client: Any = None
        self._lock = threading.Lock()

    def get(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = openai_client(self._config)
            return self._client

    def drop(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            threading.Thread(target=client.close, daemon=True).start()
