"""How much of a value question's metric a row label names, read label after label for one question."""

from __future__ import annotations

import pytest

from engine.documents.text import stems
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_cover import cover_of, label_cover, qualifier_terms, term_weights
from engine.reading.value_spec import value_spec

LABELS = ["Purchases of property, plant and equipment", "Capital expenditures", "Net sales", "Total", "Cost of sales",
          "Proceeds from sale of equipment", "Kayaks net sales", "Kayaks", "Depreciation", "2041"]  # fmt: skip


@pytest.mark.parametrize(
    "question",
    ["What were the capital expenditures of Acme in 2041?", "What were the Kayaks line's net sales in 2041?"],
)
def test_the_bound_cover_is_the_label_cover_of_every_label(question: str) -> None:
    spec = value_spec(question, extract_keywords(question), line_item_names(question))
    labels = [stems(label) for label in LABELS]
    weights = term_weights(spec.terms, labels)
    qualifiers = qualifier_terms(spec, labels)
    covers = cover_of(spec, weights, None, qualifiers)
    found = [covers(label) for label in labels]
    assert found == [label_cover(spec, label, weights, None, qualifiers) for label in labels]
    assert any(found) and 0.0 in found, "labels that name the metric and labels that name none of it"


def test_the_verb_of_paying_names_no_line_item() -> None:
    spec = value_spec("How much did Kestrel spend on pilotage in 2031?", ["pilotage", "spend"], [])
    assert len(spec.terms) == 1 and not any("spend" in term for term in spec.terms), spec.terms


def test_words_saying_a_thing_exists_or_when_are_no_words_of_its_name() -> None:
    spec = value_spec(
        "How many ferry leases were in place at year-end 2031?", ["ferry leases", "place", "year-end", "2031"], []
    )
    assert len(spec.terms) == 1, spec.terms
    assert not any(w in term for term in spec.terms for w in ("plac", "year-end")), spec.terms
