"""Which of several selected documents a question is about (pure: the caller reads the documents).

A question over several selected documents that names one of them ("What was Acme's capital expenditure
in 2019?" with Acme's and Globex's filings selected) is about that one only: its answer is read from that
document's evidence, and it is no comparison. The names are matched, not listed: each phrase of the question
that could name a document (a company's or product's name, a period, a version, a kind of report) is given to
the document that carries it most distinctly in its file name, its title page or its text
(``engine.reading.doc_sides.map_sides``). Only a question whose phrases name several documents, or that asks
across documents without naming one, keeps them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.reading.doc_sides import DocIdentity, DocSide, collective_noun, is_name, map_sides

ACROSS = re.compile(
    r"\bcompar(?:e|ed|es|ing|ison)\b|\bvs\.?\b|\bversus\b|\bdiffer(?:s|ed|ence|ent)?\b|\bboth\b|\beach\b|"
    r"\beither\b|\bbetween\b|\bchange[sd]?\b|\bfrom\b.+\bto\b|\bmatch(?:es|ed)?\b|\bconsistent\b|\bagree\b",
    re.I,
)
"""Words that ask across things (to compare, to follow a change from one to the other, to check one against
the other). When a document is named only by a period or a kind of report, such a question may be asking
across documents whose other side it does not name ("How did the 2022 figure change?"), so it keeps them all."""

_OTHER_DOCUMENT = re.compile(r"\b(?:the other|another|other)\s+(?:document|report|filing|company|one|paper)s?\b", re.I)
"""A question that points at a document it does not name ("... than the other company") asks across documents."""


def scoped_doc_ids(question: str, docs: Sequence[DocIdentity], comparison: bool) -> list[str]:
    """The ids of the documents ``question`` is about, among ``docs`` (all of them unless it names exactly one).

    A document named by its own name (its company or product) is the scope even when the question compares:
    "Compare Acme's net sales in 2018 and 2019" compares two years of Acme, read from Acme's filing. One named
    only by a period, a version or a kind of report is the scope only for a question that asks nothing across,
    as the other side of a change or comparison may be the unnamed document. A question that speaks of several
    documents at once ("both reports", "each company", "the other filing") keeps them all.
    """
    every = [d.doc_id for d in docs]
    if len(docs) < 2:
        return every
    sides = map_sides(question, docs)
    named = [side for side in sides if side.phrases]
    if len(named) != 1 or collective_noun(question) or _OTHER_DOCUMENT.search(question):
        return every
    if by_name(named[0]) or not (comparison or ACROSS.search(question)):
        return [named[0].doc_id]
    return every


def names_a_document(question: str, docs: Sequence[DocIdentity]) -> bool:
    """Whether ``question`` names any of ``docs`` (by a name, period, version or kind of report): a follow-up
    that does ("What about Globex?") sets its own scope; one that does not inherits its previous turn's."""
    return len(docs) > 1 and any(side.phrases for side in map_sides(question, docs))


def by_name(side: DocSide) -> bool:
    """Whether a document is named by a name of its own (a company or product), not only by a period,
    version or kind of report."""
    return any(is_name(phrase) for phrase in side.phrases)


def previous_scope(selected: Sequence[str], cited: Sequence[str], across: bool) -> list[str]:
    """The scope a follow-up inherits from the turn it continues: the one document that turn was read from
    when it was about one document of several ("And in 2018?" after a question about Acme stays with Acme);
    every selected document after a comparison across documents (``across``) or a turn read from several."""
    docs = list(dict.fromkeys(d for d in cited if d in selected))
    if len(selected) > 1 and len(docs) == 1 and not across:
        return docs
    return list(selected)
