"""A superlative question over a paper's results table is answered by the picked row (made-up paper PDF)."""

from __future__ import annotations

import pymupdf

from engine.api import answer
from engine.library.local import Library

PAPER = [
    ("4 Experiments", 16),
    ("We compare the Kestrel tagger at three sampling temperatures with two smaller taggers on the Fenland "
     "bird-call corpus. Table 2 lists accuracy, precision, recall and the word error rate of each system.", 11),
    ("Table 2: Results on the Fenland corpus.", 11),
    ("System | Acc. Prec. Rec. WER", 11),
    ("Kestrel (0.2) 81.5 70.2 66.0 9.1 Kestrel (0.6) 83.0 72.8 61.5 8.4 Kestrel (0.9) 79.9 69.0 64.2 10.3", 11),
    ("Osprey-9B 64.0 58.1 69.9 15.2", 11),
    ("Wren-2B 55.3 49.0 71.2 19.8", 11),
    ("5 Discussion", 16),
    ("Sampling temperature changes the Kestrel tagger's accuracy only a little; recall favours small taggers.", 11),
]  # fmt: skip


def paper_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    y = 72
    for text, size in PAPER:
        rect = pymupdf.Rect(72, y, 540, y + 200)
        html = f"<b>{text}</b>" if size == 16 else text
        spare, _ = page.insert_htmlbox(rect, html, css=f"* {{font-family: sans-serif; font-size: {size}px;}}")
        y += 200 - spare + 10
    return doc.tobytes()


def ask(config, question: str):
    library = Library(config)
    entry = library.ingest(paper_pdf(), "fenland-tagging.pdf")
    return answer(question, [entry.doc_id], library=library, config=config, strategy="single_pass").answer


def test_the_highest_accuracy_of_the_rows_named_is_the_answer_citing_its_row(config) -> None:
    result = ask(config, "Which temperature gives Kestrel the highest accuracy?")
    assert result.text.startswith("Kestrel (0.6): Acc. 83.0"), result.text
    assert result.citations[0].quote.startswith("Kestrel (0.6) 83.0")
    assert not result.complete_answer_found


def test_best_reads_a_word_error_rate_as_lower_is_better(config) -> None:
    assert ask(config, "Which system has the best WER?").text.startswith("Kestrel (0.6): WER 8.4")


def test_a_question_whose_measure_no_header_names_keeps_the_reader_s_answer(config) -> None:
    assert "Kestrel (0." not in ask(config, "Which bird call is the longest?").text.split(":")[0]


def test_a_value_at_a_named_row_and_column_is_read_from_the_table(config) -> None:
    result = ask(config, "What is the precision of Osprey-9B?")
    assert result.text == "Osprey-9B, Prec.: 58.1.", result.text
    assert result.citations[0].quote == "Osprey-9B 64.0 58.1 69.9 15.2"


def test_a_quarters_table_does_not_answer_for_the_year() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.table_values import table_cells
    from engine.run.extreme_reader import _period_fits

    quarter = table_cells([EvidenceItem(
        chunk_id="d:p21:b0", doc_id="d", file_name="acme.pdf", page=21, section_path=("Fourth-quarter results",),
        text="Segment results (Millions) | Sales | Income\nGarden Tools | 1,520 | 458\nPumps | 1,211 | 257",
    )])  # fmt: skip
    assert quarter
    assert not _period_fits(quarter, "Which segment had higher sales in 2031, Garden Tools or Pumps?")
    assert _period_fits(quarter, "Which segment had higher sales in the fourth quarter of 2031, Garden Tools or Pumps?")
    assert _period_fits(quarter, "Which segment had higher sales, Garden Tools or Pumps?")
