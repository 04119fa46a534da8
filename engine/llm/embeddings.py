"""An ``Embedder`` over an OpenAI-compatible ``POST /v1/embeddings`` endpoint (dense retrieval's vectors).

Configured like the chat endpoint (``BackendConfig.embeddings_endpoint()``): whose key goes where is
``credentials()`` (the server's key only to the server's endpoint; an endpoint a visitor typed needs its
own key). Requests go through the chat path's machinery: ``request_with_retries`` (per-attempt deadline,
bounded retries of timeouts, 429 and 5xx) and ``BoundedTransport`` (a byte cap and a wall-clock deadline
per reply). Vectors are asked for as floats and checked: one per text, all of one width, all finite.

Every failure raises ``EmbeddingError`` with one key-free line (the caller falls back to the LSA and
records it); a failure of an endpoint a visitor typed reads the same generic line whatever happened, and
the details go to the server log, as on the chat path.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.config import BackendConfig
from engine.errors import BackendUnavailableError, EndpointPolicyError
from engine.llm.transport import ClientSlot, Tally, describe, request_with_retries, short_validation
from engine.retrieval.protocols import EmbeddingError

logger = logging.getLogger(__name__)

TYPED_EMBEDDINGS_FAILED = (
    "the embeddings endpoint typed in the settings gave no usable vectors (the server log has the details)"
)
"""The one reason shown for any failure of a visitor's embeddings endpoint (the note cannot map the network)."""
_KEY_LIKE = re.compile(r"\b(?:sk|key|api)[-_][A-Za-z0-9_\-]{8,}\b")


class _Vector(BaseModel):
    model_config = ConfigDict(extra="ignore")

    embedding: list[float]
    index: int | None = None


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    data: list[_Vector]


class OpenAIEmbedder:
    """``Embedder`` over an OpenAI-compatible embeddings endpoint; the client is built on the first request."""

    def __init__(self, config: BackendConfig, run_deadline: Callable[[], float | None] | None = None) -> None:
        """``config`` comes from ``BackendConfig.embeddings_endpoint()`` (model and base URL are the embeddings').
        ``run_deadline()`` is when the question's seconds budget ends (``time.monotonic()``): no request outlives
        it, whatever deadline a caller passes (the endpoint's calls share the question's budget)."""
        self.config = config
        self._run_deadline = run_deadline
        self._clients = ClientSlot(self.config)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.config.model!r}, base_url={self.config.base_url!r})"

    @property
    def model(self) -> str:
        return self.config.model or "unnamed model"

    def embed(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        """One float32 row per text (see ``Embedder``); ``EmbeddingError`` with a safe reason otherwise."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        deadline = self._within_run(deadline)
        try:
            if not self.config.model:
                raise EndpointPolicyError("name the embeddings model (--embeddings-model)")
            client = self._get_client()
            body = request_with_retries(self, lambda: self._create(client, list(texts)), Tally(), deadline)
            return _vectors(body, len(texts))
        except Exception as exc:
            reason = self._scrub(exc.reason if isinstance(exc, EmbeddingError) else describe(exc))
            if self.config.typed_endpoint() and not isinstance(exc, EndpointPolicyError | BackendUnavailableError):
                logger.warning("embeddings on a typed endpoint failed: %s", reason)
                reason = TYPED_EMBEDDINGS_FAILED
            raise EmbeddingError(f"embeddings endpoint: {reason}") from None

    def _within_run(self, deadline: float | None) -> float | None:
        """The earlier of ``deadline`` and the question's; ``EmbeddingError`` when the question's has passed."""
        ends = self._run_deadline() if self._run_deadline is not None else None
        if ends is None:
            return deadline
        if time.monotonic() >= ends:
            raise EmbeddingError("embeddings endpoint: the question's seconds budget is spent")
        return ends if deadline is None else min(deadline, ends)

    def _create(self, client: Any, texts: list[str]) -> bytes:
        """One request; the body is read here, inside the attempt's deadline."""
        raw = client.embeddings.with_raw_response.create(model=self.config.model, input=texts, encoding_format="float")
        return bytes(raw.http_response.content)

    def _get_client(self) -> Any:
        return self._clients.get()

    def _drop_client(self) -> None:
        """Forget the client after an abandoned request; a fresh one serves the next request."""
        self._clients.drop()

    def _scrub(self, text: str) -> str:
        """``text`` on one line, with every key this process knows of (and anything shaped like one) masked."""
        own = self.config.api_key.get_secret_value() if self.config.api_key is not None else ""
        for key in (own.strip(), os.environ.get("OPENAI_API_KEY", "").strip()):
            if key:
                text = text.replace(key, "***")
        return " ".join(_KEY_LIKE.sub("***", text).split())[:300]


def _vectors(body: bytes, expected: int) -> np.ndarray:
    """The reply's vectors in input order; ``EmbeddingError`` when they are not ``expected`` finite rows of one width."""
    try:
        reply = _Reply.model_validate(json.loads(body))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise EmbeddingError("the reply is not JSON") from None
    except ValidationError as exc:
        raise EmbeddingError(f"the reply is not an embeddings list ({short_validation(exc)[:160]})") from None
    items = reply.data
    if len(items) != expected:
        raise EmbeddingError(f"the reply holds {len(items)} vectors for {expected} texts")
    if all(item.index is not None for item in items):
        items = sorted(items, key=lambda item: item.index or 0)
        if [item.index for item in items] != list(range(expected)):
            raise EmbeddingError("the reply's vector indexes do not match the texts sent")
    widths = {len(item.embedding) for item in items}
    if widths == {0}:
        raise EmbeddingError("the reply's vectors are empty")
    if len(widths) != 1:
        raise EmbeddingError(f"the reply's vectors differ in width ({', '.join(map(str, sorted(widths)))} dimensions)")
    rows = np.asarray([item.embedding for item in items], dtype=np.float32)
    if not np.isfinite(rows).all():
        raise EmbeddingError("the reply's vectors hold values that are not finite numbers")
    if not np.abs(rows).max(axis=1).all():  # a zero vector has no direction: every similarity to it is 0
        raise EmbeddingError("the reply holds all-zero vectors (no direction to rank by); nothing was kept")
    return rows


def embedder_for(
    config: BackendConfig, run_deadline: Callable[[], float | None] | None = None
) -> OpenAIEmbedder | None:
    """The embeddings client ``config`` asks for (its calls end by ``run_deadline()``), or None: dense retrieval
    stays on the offline LSA."""
    endpoint = config.embeddings_endpoint()
    return OpenAIEmbedder(endpoint, run_deadline) if endpoint is not None else None


__all__ = ["TYPED_EMBEDDINGS_FAILED", "OpenAIEmbedder", "embedder_for"]
