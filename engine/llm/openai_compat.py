"""A backend for any OpenAI-compatible endpoint (the factory wraps it in a per-step fallback to the offline rules).

Every request fits the model: a ``max_tokens`` cap and a temperature per task (``engine.llm.tasks``), a
deadline inside the run's seconds budget, the evidence fitted to the context window and numbered so
the model cites ``[3]``, and a small reply schema (``wire.py``) that code turns into the contracts,
checking every citation. Structured output walks down ``json_schema`` -> ``json_object`` with the
schema -> plain text with the JSON extracted, on the server's actual refusal only, remembered per
endpoint (``structured.py``). A reply that fails validation gets one corrective retry (recorded); a
reply still invalid, or an endpoint that keeps failing, raises ``BackendStepError`` with a key-free
reason and what the step spent (the factory's ``FallbackBackend`` has the offline rules do that step
and records why). Usage counts every request sent, answered or not. The answer's feedback signals
(pending references, garbled pages, uncovered sides) are checked in code after the call
(``engine.reading.signals``), as for every backend: the model is not asked for them.

The API key is only ever handed to the ``openai`` client (which sends it as the Authorization
header); it is scrubbed from every message this module produces, and never logged or stored. Whose key
goes where is ``BackendConfig.credentials()``: the server's key only to the server's endpoint, a
visitor's endpoint only with the visitor's key. Replies are read through ``BoundedTransport`` (a byte
cap and a wall-clock deadline per request). Any failure of an endpoint a visitor typed gets one generic
reason, so the fallback note cannot serve as a port scanner; the details go to the server log.
"""

from __future__ import annotations

import logging
import os
import re
import threading
import time
from functools import partial
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.config import BackendConfig, server_endpoint
from engine.contracts import BackendReply, ExecutionPlan, TaskName, TaskRequest, check_output_type
from engine.contracts.backend import T
from engine.errors import BackendError, BackendStepError, BackendUnavailableError, EndpointPolicyError
from engine.llm import prompts, structured, wire
from engine.llm.network import ensure_network
from engine.llm.streaming import TextDeltas, TextSink, collect_stream, current_sink
from engine.llm.tasks import TASKS, TaskLimits
from engine.llm.transport import (
    ClientSlot,
    CutOff,
    InvalidReply,
    Tally,
    describe,
    request_with_retries,
    short_validation,
)

logger = logging.getLogger(__name__)

_KEY_LIKE = re.compile(r"\b(?:sk|key|api)[-_][A-Za-z0-9_\-]{8,}\b")


_SERVED_MODEL: dict[str, str] = {}
"""The model each endpoint was found to serve (asked once per endpoint and process)."""
_SERVED_LOCK = threading.Lock()


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
        self._clients = ClientSlot(self.config)
        self._model: str | None = config.model
        self._lock = threading.Lock()
        self.events: list[str] = []
        """What happened on the way (output-mode changes, corrective retries, plan repairs), in order."""

    def __repr__(self) -> str:
        return f"OpenAIBackend(model={self.config.model!r}, base_url={self.base_url!r})"

    # ---- secrets and the client -----------------------------------------------------------------

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
        return self._clients.get()

    def _drop_client(self) -> None:
        """Forget the client after an abandoned request; a fresh one serves the next request."""
        self._clients.drop()

    def model_name(self, tally: Tally, deadline: float | None) -> str:
        """The configured model, or the one the endpoint serves when none is configured."""
        if self._model:
            return self._model
        with _SERVED_LOCK:
            self._model = _SERVED_MODEL.get(self.base_url or "")
        if self._model:
            return self._model
        client = self._get_client()
        try:
            listing = request_with_retries(self, lambda: client.models.list(), tally, deadline, count_call=False)
            ids = [str(m.id) for m in (getattr(listing, "data", None) or [])]
        except Exception as exc:  # any failure to list means the same thing to the user
            status = getattr(exc, "status_code", None)
            cause = f"HTTP {status}" if status else describe(exc)[:80]
            raise BackendError(
                f"name the model to use (--model): the endpoint did not list its models ({cause})"
            ) from None
        if len(ids) != 1:
            shown = ", ".join(ids[:5]) or "none"
            raise BackendError(f"name the model to use (--model): the endpoint serves {len(ids)} ({shown})")
        with _SERVED_LOCK:
            self._model = _SERVED_MODEL.setdefault(self.base_url or "", ids[0])
        return self._model

    def _record(self, event: str) -> None:
        logger.info("openai: %s", event)
        with self._lock:
            self.events.append(event)

    # ---- the protocol -----------------------------------------------------------------------------

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        """Run ``task`` on the endpoint.

        Raises:
            BackendStepError: the step could not be done (its reason names no secret).
        """
        check_output_type(task, output_type)
        started = time.monotonic()
        tally = Tally()
        try:
            value = self._attempt(task, request, tally, self._step_deadline(task, request, started))
        except Exception as exc:
            reason = self.scrub(describe(exc))
            if self.config.typed_endpoint() and not isinstance(exc, EndpointPolicyError | BackendUnavailableError):
                logger.warning("openai %s step on a typed endpoint failed: %s", task, reason)
                reason = TYPED_ENDPOINT_FAILED
            raise BackendStepError(reason, usage=tally.usage(time.monotonic() - started)) from None
        return BackendReply(value=value, usage=tally.usage(time.monotonic() - started))  # type: ignore[arg-type]

    def _step_deadline(self, task: TaskName, request: TaskRequest, started: float) -> float | None:
        """When this step must be done: its share of the seconds left (None: no budget given)."""
        if request.time_limit_seconds is None:
            return None
        return started + TASKS[task].limits.budget_share * request.time_limit_seconds

    def _attempt(self, task: TaskName, request: TaskRequest, tally: Tally, deadline: float | None) -> BaseModel:
        limits = TASKS[task].limits
        wire_type = TASKS[task].wire
        schema = structured.schema_of(wire_type)
        model = self.model_name(tally, deadline)
        mode = structured.MODES.get(self.base_url or "", model)
        evidence = prompts.fit_evidence(task, request, request.evidence, schema, self.config.context_window_tokens,
                                        limits.max_tokens)  # fmt: skip
        if len(evidence) < len(request.evidence):
            self._record(f"{task}: {len(evidence)} of {len(request.evidence)} passages fit the context window")
        messages = prompts.build_messages(task, request, evidence, schema if mode == "text" else None)
        error = ""
        for attempt in range(2):
            try:
                reply = self._call(task, messages, wire_type, schema, tally, deadline)
                break
            except CutOff:
                raise  # asking again would restart the same runaway reply
            except InvalidReply as exc:
                error = str(exc)
                if attempt:
                    raise InvalidReply(f"reply still invalid after a corrective retry: {error[:300]}") from None
                self._record(f"{task}: reply invalid, one corrective retry ({self.scrub(error[:160])})")
                messages = [*messages, prompts.correction_message(error)]
        return self._to_contract(task, reply, request, evidence)

    def _call(
        self,
        task: TaskName,
        messages: list[dict[str, str]],
        wire_type: type[BaseModel],
        schema: dict[str, Any],
        tally: Tally,
        deadline: float | None,
    ) -> BaseModel:
        """One request, walking down the output-mode ladder while the server refuses the field."""
        import openai

        limits = TASKS[task].limits
        model = self._model or ""
        key = self.base_url or ""
        sink = current_sink() if task == "answer" else None  # read here: the request runs in a worker thread
        while True:
            mode = structured.MODES.get(key, model)
            fmt = structured.response_format(mode, wire_type.__name__, schema)
            sent = _with_schema_in_system(messages, schema, mode)
            self._get_client()  # built (and ``openai`` imported) before the request's deadline starts
            call = partial(self._create, model, sent, limits, fmt, sink, deadline)
            try:
                completion = request_with_retries(self, call, tally, deadline, prompt=sent)
            except openai.APIStatusError as exc:
                if not structured.refuses_response_format(exc.status_code, _message_of(exc)):
                    raise
                lower = structured.MODES.lower(key, model, mode)
                if lower is None:
                    raise
                self._record(f"endpoint refused response_format {mode} (HTTP {exc.status_code}); using {lower}")
                continue
            return _parse_completion(completion, wire_type, mode, limits.max_tokens)

    def _create(
        self,
        model: str,
        messages: list[dict[str, str]],
        limits: TaskLimits,
        fmt: dict | None,
        sink: TextSink | None,
        deadline: float | None,
    ) -> Any:
        """One streamed request, read to its end (streamed so that an abandoned request stops the server's
        work: llama.cpp's server keeps generating a non-streamed reply nobody waits for)."""
        extra: dict[str, Any] = {"response_format": fmt} if fmt is not None else {}
        stream = self._get_client().chat.completions.create(
            model=model, messages=messages, max_tokens=limits.max_tokens, temperature=limits.temperature,
            stream=True, stream_options={"include_usage": True}, **extra,
        )  # fmt: skip
        return collect_stream(stream, TextDeltas(sink), messages, deadline)

    def _to_contract(self, task: TaskName, reply: BaseModel, request: TaskRequest, evidence: tuple) -> BaseModel:
        if isinstance(reply, wire.WireAnswer):
            return wire.answer_from_wire(reply, evidence, request.max_citations)
        if isinstance(reply, wire.WireQuestion):
            return wire.question_from_wire(reply, request.question)
        if isinstance(reply, ExecutionPlan):
            plan, notes = wire.repair_plan(reply)
            for note in notes:
                self._record(f"plan repaired: {note}")
            return plan
        return reply


def _with_schema_in_system(messages: list[dict[str, str]], schema: dict[str, Any], mode: str) -> list[dict[str, str]]:
    """``messages`` with the schema spelled out in the system turn when the server does not enforce it
    (plain-text mode); the server-side modes keep the prompt short."""
    if mode != "text" or "JSON schema:" in messages[0]["content"]:
        return messages
    return [{"role": "system", "content": prompts.system_message(schema)}, *messages[1:]]


def _message_of(exc: Any) -> str:
    body = getattr(exc, "body", None)
    return f"{exc} {body}" if body is not None else str(exc)


def _parse_completion(completion: Any, wire_type: type[BaseModel], mode: str, max_tokens: int) -> BaseModel:
    try:
        choice = completion.choices[0]
        content = choice.message.content or ""
    except (AttributeError, IndexError, KeyError, TypeError):
        raise InvalidReply("the endpoint's reply is not a chat completion") from None
    if getattr(choice, "finish_reason", None) == "length":
        raise CutOff(f"the reply was cut off at its {max_tokens}-token cap before the JSON object closed")
    text = structured.extract_json(content) if mode == "text" else content
    if not text:
        raise InvalidReply("the reply held no JSON object")
    try:
        return wire_type.model_validate_json(text)
    except ValidationError as exc:
        raise InvalidReply(short_validation(exc)) from None


TYPED_ENDPOINT_FAILED = "the endpoint typed in the settings gave no usable reply (the server log has the details)"
"""The one reason shown for any failure of a visitor's endpoint: refused, filtered, an HTTP error, a model
listing that failed or a malformed reply all read the same, so the note cannot map the server's network."""

__all__ = ["OpenAIBackend"]
