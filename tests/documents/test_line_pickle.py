"""A line crosses from the PDF worker's helper to the worker pickled as its fields: every field comes back."""

from __future__ import annotations

import dataclasses
import pickle

from engine.documents.lines import Line


def test_a_pickled_line_keeps_every_field() -> None:
    line = Line(
        "Revenue 1,204 3.5%", (72.0, 100.0, 300.0, 110.0), 9.5, True, 16, bold_runs=[(0, "Revenue")],
        starts_bold=True, columnar=True, cells=["Revenue", "1,204", "3.5%"],
        cell_x=[(72.0, 120.0), (200.0, 230.0), (270.0, 300.0)], pieces=[(72.0, 120.0, "Revenue")],
    )  # fmt: skip
    assert all(getattr(line, f.name) != f.default for f in dataclasses.fields(Line))  # every field set
    assert pickle.loads(pickle.dumps(line, pickle.HIGHEST_PROTOCOL)) == line
    assert len(line.__reduce__()[1]) == len(dataclasses.fields(Line))
