"""A backend for any OpenAI-compatible endpoint.

Structured outputs go through ``client.chat.completions.parse`` into the task's pydantic model. A
reply that fails validation gets one corrective retry; a reply still invalid, or an endpoint that
keeps failing after its retries, raises ``BackendStepError`` with a key-free reason and what the step
spent (the factory's ``FallbackBackend`` then has the offline rules do that step, and records why).
The feedback signals of an answer are checked in code after the call (``engine.bricks.signals``), as
for every backend. The client is built lazily on the first call. The API key is only ever handed to the
``openai`` client (which sends it as the Authorization header); it is scrubbed from every message
this module produces, and never logged or stored.

Whose key goes where is ``BackendConfig.credentials()``: the server's key only to the server's endpoint,
a visitor's endpoint only with the visitor's key. Replies are read through ``BoundedTransport`` (a byte
cap and a wall-clock deadline per request). An endpoint a visitor typed gets one generic failure reason,
so the fallback note cannot serve as a port scanner; the details go to the server log.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engine.config import BackendConfig, server_endpoint
from engine.contracts import BackendReply, LlmUsage, TaskName, TaskRequest, check_output_type
from engine.contracts.backend import T
from engine.errors import BackendError, BackendStepError
from engine.llm import prompts
from engine.llm.bounded_http import bounded_http_client, limit_of
from engine.llm.network import ensure_network

logger = logging.getLogger(__name__)

_KEY_LIKE = re.compile(r"\b(?:sk|key|api)[-_][A-Za-z0-9_\-]{8,}\b")


class _InvalidReply(Exception):
    """The endpoint answered, but not with a valid instance of the schema."""


class _Deadline(Exception):
    """A request outlived its wall-clock deadline."""


def _retry_after(exc: BaseException, attempt: int) -> float:
    """Seconds to wait before the next attempt: Retry-After when given, else exponential backoff."""
    response = getattr(exc, "response", None)
    header = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(header)) if header is not None else 0.5 * 2**attempt
    except ValueError:
        return 0.5 * 2**attempt


@dataclass
class _Tally:
    """Calls and tokens spent on one step, kept across retries and failures."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def usage(self, seconds: float) -> LlmUsage:
        return LlmUsage(calls=max(1, self.calls), prompt_tokens=self.prompt_tokens,
                        completion_tokens=self.completion_tokens, seconds=round(seconds, 4))  # fmt: skip


class OpenAIBackend:
    """``Backend`` over an OpenAI-compatible chat-completions endpoint."""

    name = "openai"

    def __init__(self, config: BackendConfig) -> None:
        """Check the network switch now; the client itself is built on the first ``run``.

        Raises:
            BackendUnavailableError: network backends are switched off here.
        """
        self.config = config
        self.base_url = config.base_url or server_endpoint()
        ensure_network(self.base_url or "https://api.openai.com/v1")
        self._client: Any = None
        self._json_mode = False
        self._lock = threading.Lock()
        self._local = threading.local()

    def __repr__(self) -> str:
        return f"OpenAIBackend(model={self.config.model!r}, base_url={self.base_url!r})"

    # ---- secrets ------------------------------------------------------------------------------

    def _keys(self) -> list[str]:
        """Every key this process could know of: the configured one and the server's."""
        own = self.config.api_key.get_secret_value() if self.config.api_key is not None else ""
        return [k for k in (own.strip(), os.environ.get("OPENAI_API_KEY", "").strip()) if k]

    def scrub(self, text: str) -> str:
        """``text`` with the API keys (and anything shaped like a key) masked."""
        for key in self._keys():
            text = text.replace(key, "***")
        return _KEY_LIKE.sub("***", text)

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                url, key = self.config.credentials()  # whose key may go to which endpoint
                ensure_network(url or "https://api.openai.com/v1")
                import openai

                # retries are ours (``_request``): the client's honour Retry-After up to 120 s
                self._client = openai.OpenAI(
                    api_key=key, base_url=url, timeout=self.config.timeout_seconds, max_retries=0,
                    http_client=bounded_http_client(self.config.max_reply_bytes, self.config.timeout_seconds),
                )  # fmt: skip
            return self._client

    # ---- the protocol -------------------------------------------------------------------------

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        """Run ``task`` on the endpoint.

        Raises:
            BackendStepError: the step could not be done (its reason names no secret).
        """
        check_output_type(task, output_type)
        started = time.perf_counter()
        limit = request.time_limit_seconds
        self._local.deadline = time.monotonic() + limit if limit is not None else None
        tally = _Tally()
        try:
            value = self._attempt(task, request, output_type, tally)
        except Exception as exc:
            reason = self.scrub(_describe(exc))
            if self.config.typed_endpoint() and not isinstance(exc, BackendError):
                logger.warning("openai %s step on a typed endpoint failed: %s", task, reason)
                reason = TYPED_ENDPOINT_FAILED
            raise BackendStepError(reason, usage=tally.usage(time.perf_counter() - started)) from None
        return BackendReply(value=value, usage=tally.usage(time.perf_counter() - started))

    def _attempt(self, task: TaskName, request: TaskRequest, output_type: type[T], tally: _Tally) -> T:
        messages = prompts.build_messages(task, request, output_type, self._json_mode)
        error = ""
        for attempt in range(2):
            try:
                value = self._call(messages, output_type, tally)
                if attempt:
                    logger.info("openai %s reply valid after a corrective retry", task)
                return value
            except _InvalidReply as exc:
                error = str(exc)
                logger.info("openai %s reply invalid (attempt %d): %s", task, attempt + 1, self.scrub(error[:200]))
                messages = [*messages, prompts.correction_message(error)]
        raise _InvalidReply(f"reply still invalid after a corrective retry: {error[:300]}")

    def _call(self, messages: list[dict[str, str]], output_type: type[T], tally: _Tally) -> T:
        import openai

        self._get_client()  # configuration errors surface here, before any request
        try:  # each attempt asks for the client again: an abandoned attempt closed the previous one
            if self._json_mode:
                completion = self._request(lambda: self._get_client().chat.completions.create(
                    model=self.config.model, messages=messages, response_format={"type": "json_object"}
                ))  # fmt: skip
            else:
                completion = self._request(lambda: self._get_client().chat.completions.parse(
                    model=self.config.model, messages=messages, response_format=output_type
                ))  # fmt: skip
        except (ValidationError, ValueError) as exc:
            tally.calls += 1
            raise _InvalidReply(_short_validation(exc)) from None
        except openai.BadRequestError as exc:
            if self._json_mode or ("response_format" not in str(exc) and "schema" not in str(exc)):
                raise
            logger.info("endpoint rejected the structured-output schema; switching to JSON mode")
            self._json_mode = True
            messages = [prompts.build_messages_system_json(messages, output_type), *messages[1:]]
            return self._call(messages, output_type, tally)
        _add_usage(tally, completion)
        try:
            message = completion.choices[0].message
        except (AttributeError, IndexError, KeyError, TypeError):
            raise _InvalidReply("the endpoint's reply is not a chat completion") from None
        if self._json_mode:
            try:
                return output_type.model_validate_json(message.content or "")
            except ValidationError as exc:
                raise _InvalidReply(_short_validation(exc)) from None
        parsed = getattr(message, "parsed", None)
        if parsed is None:
            raise _InvalidReply(getattr(message, "refusal", None) or "the reply held no JSON object")
        return parsed

    def _request(self, call: Any) -> Any:
        """``call()`` with at most ``max_retries`` retries of timeouts, connection errors, 408/409/429
        and 5xx; waits are capped at ``timeout_seconds`` whatever Retry-After says, and each attempt
        has a wall-clock deadline of ``timeout_seconds`` (a reply trickling in byte by byte would
        otherwise never trip the client's per-read timeout)."""
        import openai

        retries = self.config.max_retries
        for attempt in range(retries + 1):
            limit = self._seconds_left()
            try:
                return self._within_deadline(call, limit)
            except (openai.APITimeoutError, openai.APIConnectionError, _Deadline, openai.APIStatusError) as exc:
                status = getattr(exc, "status_code", None)
                if attempt == retries or (status is not None and status not in (408, 409, 429) and status < 500):
                    raise
                if limit_of(exc) is not None:  # an oversized or endless reply would only come again
                    raise
                wait = min(_retry_after(exc, attempt), self.config.timeout_seconds)
                deadline = getattr(self._local, "deadline", None)
                if deadline is not None and time.monotonic() + wait >= deadline:
                    raise
                time.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def _seconds_left(self) -> float:
        """Seconds one attempt may take: the timeout, cut to the run's remaining time budget."""
        deadline = getattr(self._local, "deadline", None)
        if deadline is None:
            return self.config.timeout_seconds
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Deadline("the run's time budget is spent")
        return min(self.config.timeout_seconds, left)

    def _within_deadline(self, call: Any, seconds: float) -> Any:
        box: dict[str, Any] = {}

        def target() -> None:
            try:
                box["value"] = call()
            except BaseException as exc:
                box["error"] = exc

        worker = threading.Thread(target=target, name="openai-request", daemon=True)
        worker.start()
        worker.join(seconds + 0.25)
        if worker.is_alive():  # abandon the request; a fresh client serves the next one
            with self._lock:
                client, self._client = self._client, None
            if client is not None:
                threading.Thread(target=client.close, daemon=True).start()
            raise _Deadline(f"the endpoint did not finish its reply within {seconds:g} s")
        if "error" in box:
            raise box["error"]
        return box["value"]


def _add_usage(tally: _Tally, completion: Any) -> None:
    usage = getattr(completion, "usage", None)
    tally.calls += 1
    tally.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
    tally.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)


def _short_validation(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'reply'}: {e['msg']}" for e in errors[:6])
    return str(exc)[:300]


def _describe(exc: BaseException) -> str:
    """A short, key-free description of why a step could not be done on the endpoint."""
    import openai

    if isinstance(exc, _InvalidReply | BackendError | _Deadline):
        return str(exc)
    limit = limit_of(exc)
    if limit is not None:
        return str(limit)
    if isinstance(exc, openai.APITimeoutError):
        return "the endpoint did not answer within the timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "could not connect to the endpoint"
    if isinstance(exc, openai.RateLimitError):
        return "the endpoint kept rate-limiting the requests (HTTP 429)"
    if isinstance(exc, openai.APIStatusError):
        return f"the endpoint answered HTTP {exc.status_code}"
    return f"{type(exc).__name__}: {str(exc)[:200]}"


TYPED_ENDPOINT_FAILED = "the endpoint typed in the settings gave no usable reply (the server log has the details)"
"""The one reason shown for any failure of a visitor's endpoint: refused, filtered, an HTTP error or a
malformed reply all read the same, so the note cannot map the server's network."""

__all__ = ["OpenAIBackend"]
