"""HTTP replies read with a byte cap and a wall-clock deadline.

An endpoint that streams its reply forever drove ``ask`` to 10 GB of memory, and a 100 MB reply was
accepted whole: the HTTP client reads whatever the server sends, and a per-read timeout never trips while
bytes keep trickling in. ``BoundedTransport`` wraps the client's transport so every response body is
counted as it arrives and cut off, with ``ReplyLimitExceeded``, past ``max_bytes`` or past ``seconds``
after the request was sent (a declared ``Content-Length`` over the cap is refused before reading).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx2


class ReplyLimitExceeded(httpx2.ReadError):
    """A reply went past its byte cap or its wall-clock deadline (the transfer is abandoned)."""


class _BoundedStream(httpx2.SyncByteStream):
    def __init__(self, inner: httpx2.SyncByteStream, request: httpx2.Request, max_bytes: int, deadline: float,
                 seconds: float) -> None:  # fmt: skip
        self._inner = inner
        self._request = request
        self._max_bytes = max_bytes
        self._deadline = deadline
        self._seconds = seconds

    def __iter__(self) -> Iterator[bytes]:
        seen = 0
        for chunk in self._inner:
            seen += len(chunk)
            if seen > self._max_bytes:
                raise ReplyLimitExceeded(too_large(self._max_bytes), request=self._request)
            if time.monotonic() > self._deadline:
                raise ReplyLimitExceeded(too_slow(self._seconds), request=self._request)
            yield chunk

    def close(self) -> None:
        self._inner.close()


def too_large(max_bytes: int) -> str:
    return f"the endpoint's reply was larger than {max_bytes / 1_000_000:g} MB; it was cut off"


def too_slow(seconds: float) -> str:
    return f"the endpoint did not finish its reply within {seconds:g} s; it was cut off"


class BoundedTransport(httpx2.BaseTransport):
    """A transport whose response bodies stop at ``max_bytes`` and ``seconds`` after the request."""

    def __init__(self, max_bytes: int, seconds: float, inner: httpx2.BaseTransport | None = None) -> None:
        self.max_bytes = max_bytes
        self.seconds = seconds
        self._inner = inner or httpx2.HTTPTransport()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        deadline = time.monotonic() + self.seconds
        response = self._inner.handle_request(request)
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            response.close()
            raise ReplyLimitExceeded(too_large(self.max_bytes), request=request)
        assert isinstance(response.stream, httpx2.SyncByteStream)
        stream = _BoundedStream(response.stream, request, self.max_bytes, deadline, self.seconds)
        return httpx2.Response(response.status_code, headers=response.headers, stream=stream, request=request,
                               extensions=response.extensions)  # fmt: skip

    def close(self) -> None:
        self._inner.close()


def bounded_http_client(max_bytes: int, seconds: float) -> httpx2.Client:
    """An HTTP client for the ``openai`` package whose replies are bounded (``BoundedTransport``)."""
    import openai

    return openai.DefaultHttpxClient(transport=BoundedTransport(max_bytes, seconds))


def limit_of(error: BaseException) -> ReplyLimitExceeded | None:
    """The ``ReplyLimitExceeded`` behind ``error`` (the openai client wraps transport errors), if any."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, ReplyLimitExceeded):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


__all__ = ["BoundedTransport", "ReplyLimitExceeded", "bounded_http_client", "limit_of"]
