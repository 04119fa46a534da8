"""A metric cut off at a rank ("Recall@50") is read whole, and a topic written before a question does not hide it."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.header_rows import is_header
from engine.reading.question import asks_for_value, extract_keywords
from engine.reading.table_values import table_cells
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec


def test_a_ranked_metric_is_one_keyword_and_keeps_its_rank_in_the_spec():
    question = "What Hits@10 does the Tern model reach on the harbour set?"
    keywords = extract_keywords(question)
    assert "Hits@10" in keywords and "10" not in keywords
    assert stems("Hits@10") in value_spec(question, keywords, ()).terms  # its rank is no figure asked


def test_a_ranked_metric_ends_a_run_of_capitalised_words():
    assert extract_keywords("What is the Hits@10 of Tern?")[:2] == ["Hits@10", "Tern"]  # not "Hits@10 of Tern"


def test_a_topic_before_the_question_proper_leaves_its_head_to_be_read():
    assert asks_for_value("Tern paper, harbour results: what Recall@50 does the Gull baseline achieve?")
    assert asks_for_value("Tern datasheet, table 2: what supply voltage is allowed?")
    assert not asks_for_value("Tern paper, harbour results: how was the harbour set built")


def _item(text: str, n: int, page: int) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"c{page}-{n}", doc_id="d", file_name="tern.pdf", page=page, text=text, kind="text",
                        section_path=("Results",), score=1.0)  # fmt: skip


def test_the_column_of_the_rank_asked_and_the_table_its_caption_names_are_read():
    summer = [
        "Table 5: Results on the Summer set.",
        "Method | Recall@10 | Recall@50",
        "Tern | 0.41 | 0.63",
        "Gull | 0.30 | 0.52",
    ]
    ablation = ["Table 7: Ablation on the Summer set.", "Method | Winter Recall | Summer Recall", "Tern | 0.38 | 0.45"]
    cells = [*table_cells([_item(t, n, 8) for n, t in enumerate(summer)]),
             *table_cells([_item(t, n, 10) for n, t in enumerate(ablation)])]  # fmt: skip
    question = "What Recall@50 does Tern reach on the Summer set?"
    best = rank_cells(value_spec(question, extract_keywords(question), ()), cells)[0].cell
    assert (best.label, best.column, best.raw) == ("Tern", "Recall@50", "0.63")


def test_a_count_hyphened_to_a_word_heads_a_column():
    assert is_header(["Model", "2-hop", "3-hop", "Overall"])
    assert is_header(["", "5-shot", "10-shot"])
    assert not is_header(["Storage", "5GB", "10GB"])  # a figure with its unit is a value


def test_a_header_cell_closed_by_a_capitalised_abbreviation_is_no_sentence():
    assert is_header(["Model", "CP Acc.", "RT Acc."])
    assert not is_header(["Model", "It was done."])  # a sentence's last word is not cut short
    assert not is_header(["Model", "Sales rose in Texas."])  # nor is a sentence ending in a short name


def test_a_figure_whose_row_s_other_figures_tie_with_it_under_no_column_name_is_doubted():
    from engine.reading.line_items import line_item_names
    from engine.reading.value_answer import answer_value

    table = _item("Table 4: Accuracy of the planners on the harbour set.\nTern | 78.2 | 64.8 | 77.9 | 63.2", 0, 7)
    question = "What accuracy does Tern reach on the harbour set?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[table]])
    assert value is not None and any("no column names it" in d for d in value.doubts), value
    placed = _item("Method | Coast | Hills\nTern | 78.2 | 64.8", 0, 7)
    value = answer_value("What accuracy does Tern reach on the Coast?", ["accuracy", "Tern", "Coast"], line_item_names,
                         [[placed]])  # fmt: skip
    assert value is not None and not any("no column names it" in d for d in value.doubts), value
