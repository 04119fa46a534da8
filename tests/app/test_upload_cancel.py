"""Cancel during an upload: Streamlit stops the script at the next progress report by raising a
``BaseException`` inside ``Library.ingest``; the library must be left exactly as it was."""

from __future__ import annotations

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

from engine.config import EngineConfig
from engine.library.local import Library
from engine.samples import build_sample_pdf


@pytest.mark.parametrize("report", [1, 2, 3, 4, 5])
def test_an_interrupted_ingest_leaves_nothing_behind(config: EngineConfig, report: int) -> None:
    """Interrupted at its ``report``-th progress report (every stage but the final "added")."""
    library = Library(config)
    seen = []

    def progress(fraction: float, message: str) -> None:
        seen.append(message)
        if len(seen) == report and fraction < 1.0:
            raise RerunException(None)  # what st.progress raises when Cancel asked for a rerun

    try:
        library.ingest(build_sample_pdf(), "sample.pdf", progress=progress)
    except RerunException:
        pass
    else:
        pytest.skip(f"the library reports fewer than {report} stages before it is done")
    assert library.entries() == []
    assert not [p for p in library.root.iterdir() if p.name.startswith(".staging")]
    assert library.ingest(build_sample_pdf(), "sample.pdf").total_pages == 10  # and it can be read again
