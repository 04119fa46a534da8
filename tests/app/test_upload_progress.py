"""Upload progress only moves forward, and names the file once."""

from __future__ import annotations

from ui.upload import MonotonicProgress


def test_out_of_order_page_reports_never_move_the_bar_or_the_count_back() -> None:
    shown = MonotonicProgress("annual-report.pdf")
    reports = [(0.30, "reading page 91 of 160"), (0.31, "reading page 63 of 160"), (0.29, "reading page 57 of 160"),
               (0.33, "reading page 57 of 160"), (0.35, "annual-report.pdf: reading page 12 of 160")]  # fmt: skip
    values, counts = [], []
    for fraction, message in reports:
        update = shown.update(fraction, message)
        if update is not None:
            values.append(update[0])
            counts.append(int(update[1].split(": ", 1)[1].split(" of ")[0]))
            assert update[1].count("annual-report.pdf") == 1
    assert values == sorted(values) and counts == sorted(counts)
    assert counts[-1] == 4  # pages 91, 63, 57 and 12: four distinct pages done
    assert shown.update(0.1, "reading page 5 of 160") is None  # behind the bar: not shown


def test_other_stages_pass_through() -> None:
    shown = MonotonicProgress("a.pdf")
    assert shown.update(0.9, "building the keyword index") == (0.9, "a.pdf: building the keyword index")
