"""Streaming a run's answer into the page while the engine works (openai backend).

The engine runs in a worker thread with ``engine.stream_answer_text`` set; the script thread drains a
queue: text pieces go to ``st.write_stream`` as the model writes them, progress events to the
caller's status box. The streamed text is the model's draft; the verified answer, citations and
highlights are shown from the run's result afterwards.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

import engine
from engine import ProgressEvent, RunResult

Progress = Callable[[ProgressEvent], None]
_DONE = object()


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
        yield item
