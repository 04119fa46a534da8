from __future__ import annotations

from engine.retrieval.listing import aggregate_listing, section_pages_for

from .factories import document, paper, toc_entry


def test_transformer_like_regularization_case():
    doc = paper()
    pages = section_pages_for(doc, ["regularization"], None)
    assert pages == (2, 3)
    result = aggregate_listing(doc, pages, ["regularization"])
    assert [i.label for i in result.items] == ["Residual Dropout", "Label Smoothing"]
    assert all(i.marker == "bold_header" for i in result.items)
    assert result.expected_count == 3
    assert result.cue == "We employ three types of regularization during training:"
    assert result.count_matches is False
    assert result.pages == (2, 3)


def test_section_pages_by_hint_and_fallback():
    doc = paper()
    assert section_pages_for(doc, [], "5.4") == (2, 3)
    assert section_pages_for(doc, [], "Appendix B") == (5,)
    no_toc = document([["cats and dogs"], ["label smoothing and dropout here"], ["dropout only"]])
    assert section_pages_for(no_toc, ["label smoothing", "dropout"], None) == (2,)
    assert section_pages_for(no_toc, ["zebra"], None) == ()
    assert section_pages_for(no_toc, [], None) == ()


def test_long_section_is_capped():
    doc = document([["x"]] * 20, [toc_entry(1, "Everything", 1, 20)])
    assert section_pages_for(doc, ["everything"], None) == (1, 2, 3, 4, 5, 6)


def test_bullets_ordinals_numbered():
    doc = document(
        [
            [
                "The process has the following four steps:",
                "• Collect the data from the field.\n• Clean the data: remove noise.",
                "- Train the model\n* Evaluate the model",
                "First, we warm up. Second, we decay.",
            ],
            [
                "(1) Prepare inputs\n(a) Check units\n2. Publish results",
                "Finally, we report the numbers to the board.",
            ],
        ]
    )
    result = aggregate_listing(doc, [1, 2], ["steps"])
    labels = [i.label for i in result.items]
    assert labels[:4] == ["Collect the data from the field", "Clean the data", "Train the model", "Evaluate the model"]
    assert "we warm up" in labels and "Prepare inputs" in labels and "Check units" in labels
    assert "Publish results" in labels and "we report the numbers to the board" in labels
    markers = {i.label: i.marker for i in result.items}
    assert markers["Collect the data from the field"] == "bullet"
    assert markers["we warm up"] == "ordinal" and markers["Prepare inputs"] == "numbered"
    assert result.expected_count == 4 and result.count_matches is False


def test_dedupe_by_normalised_label():
    doc = document([["• Label smoothing\n• label  Smoothing.\n• Dropout"]])
    assert [i.label for i in aggregate_listing(doc, [1]).items] == ["Label smoothing", "Dropout"]


def test_cue_closest_to_topic_terms_and_stop_at_next_heading():
    doc = document(
        [
            [
                "There are two kinds of cats in the garden.",
                "We use three methods of optimization:",
                "• Adam\n• SGD",
                ("6 Results", "heading", ()),
                "• unrelated bullet",
            ]
        ]
    )
    result = aggregate_listing(doc, [1], ["optimization"])
    assert result.expected_count == 3 and result.cue.startswith("We use three methods")
    assert [i.label for i in result.items] == ["Adam", "SGD"]


def test_numbered_subheadings_count_as_items():
    doc = document(
        [
            [
                ("3.2 Attention", "heading", ()),
                "We describe two variants of attention.",
                ("3.2.1 Scaled Dot-Product Attention", "heading", ()),
                "body",
                ("3.2.2 Multi-Head Attention", "heading", ()),
                "body",
                ("3.3 Feed-Forward", "heading", ()),
            ]
        ]
    )
    result = aggregate_listing(doc, [1], ["attention"])
    assert [i.label for i in result.items] == ["Scaled Dot-Product Attention", "Multi-Head Attention"]
    assert result.count_matches is True


def test_no_cue_no_items():
    result = aggregate_listing(document([["plain prose only."]]), [1])
    assert result.items == () and result.expected_count is None and result.count_matches is None
    assert aggregate_listing(paper(), []).items == ()


def test_no_cue_uses_subheadings_when_nothing_else_marked():
    doc = document([[("Methods", "heading", ()), ("Sampling", "heading", ()), "text", ("Weighting", "heading", ())]])
    assert [i.label for i in aggregate_listing(doc, [1]).items] == ["Sampling", "Weighting"]


def test_a_title_printed_once_leads_the_same_subheading_repeated_under_several_chapters():
    toc = [toc_entry(1, "Requirements", 2, 2), toc_entry(1, "Deploying to boats", 6, 8),
           toc_entry(2, "Requirement", 6, 6), toc_entry(1, "Deploying to docks", 9, 11),
           toc_entry(2, "Requirement", 9, 9)]  # fmt: skip
    doc = document([["x"]] * 11, toc)
    assert section_pages_for(doc, ["requirements"], None, "requirements") == (2,)
