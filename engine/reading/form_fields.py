"""Filled-in forms: "2. Agency:" over "Department of Harbours" is a field and its value.

Forms, cover pages and summary sheets print a label ending in a colon and the value under it, after it, or in
the next column.
``fields_in`` reads those pairs from a page's text; ``asked_field`` picks the field a question asks for: the
thing asked ("Which agency ...?", "What is the project identifier?", "When ...?" asks for a date) must be a
word of the label, and most of the label's words must be the question's. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.layout import ROW_SEPARATOR
from engine.documents.text import stems

MAX_LABEL = 90
"""A label longer than this is an instruction or a sentence ending in a colon, not a field's name."""
MAX_VALUE = 100
"""A value longer than this is a paragraph answering a free-text prompt: left to the passage readers."""
LABEL_SHARE = 0.6
"""At least this share of a label's words must be the question's: "Date of Submission" for "the date of
submission", not "Date of Last Change" for it."""

MIN_FIELDS = 3
"""A page that prints fewer fields than this is not a form: a lone "Note:" or "Output:" line labels prose."""
_ROLES = frozenset(stems("question answer input output prompt context example response query instruction q a"))
"""Labels that introduce a turn of a dialogue or an example of a prompt ("Question:", "Output:"), in papers as
much as in forms: the text after them is an example, never the document's own value for the thing."""

_LEAD = re.compile(r"^\s*(?:\(?[0-9]{1,2}[.)]|[a-z][.)]|[A-Z][.)])\s+")
"""A field's number or letter ("2. Agency:", "b) Bureau:")."""
_SAME_LINE = re.compile(r"^(?P<label>[A-Z][\w/&'’ -]{1,50}?):\s+(?P<value>\S.{0,99})$")
_WHICH = re.compile(r"^\W*(?:which|what)\s+(?P<noun>[a-z][a-z-]+)\b(?<!\bis)(?<!\bwas)(?<!\bare)(?<!\bwere)", re.I)
_WHAT_IS = re.compile(
    r"^\W*(?:what|which)\s+(?:is|was|are|were)\s+(?:the\s+)?(?P<np>[a-z][\w\s'’-]*?)(?:\s+(?:of|for|in|on|at|that)\b|\W*$)",
    re.I,
)


@dataclass(frozen=True)
class Field:
    """A form's label, its value and the line the value is printed on."""

    label: str
    value: str
    line: str


def fields_in(text: str) -> list[Field]:
    """The label-value pairs ``text`` prints: "Label:" over its value, or "Label: value" on one line."""
    lines = [" ".join(x.split()) for x in text.split("\n")]
    lines = [x for x in lines if x]
    found: list[Field] = []
    for n, line in enumerate(lines):
        cells = [c.strip() for c in line.split(ROW_SEPARATOR)]
        if len(cells) == 2 and cells[0].endswith(":") and len(cells[0]) <= MAX_LABEL and len(cells[1]) <= MAX_VALUE:
            found.append(Field(_label(cells[0][:-1]), cells[1], line))  # a form's two columns: "Agency: | value"
            continue
        if line.endswith(":") and len(line) <= MAX_LABEL and n + 1 < len(lines):
            value = lines[n + 1]
            if not value.endswith(":") and len(value) <= MAX_VALUE and ROW_SEPARATOR not in value:
                # a table row under the colon line ("Current liabilities:" over "Accounts payable | 3,247") makes
                # the line a heading of the table's rows, not a field whose value is the row
                found.append(Field(_label(line[:-1]), value, value))
            continue
        same = _SAME_LINE.match(_LEAD.sub("", line))
        if same:
            found.append(Field(_label(same.group("label")), same.group("value"), line))
    return [f for f in found if f.label and not _LIST_LEAD.search(f.label)]


_LIST_LEAD = re.compile(r"\b(?:the following|as follows|below)\s*$", re.I)
"""A colon after "the following" or "as follows" ends a sentence leading a list or a table ("Costs rose due to the
following:"), not a field's name: what comes after it is the list's first line, never the field's value."""


def _label(text: str) -> str:
    return " ".join(re.sub(r"\([^)]*\)", " ", _LEAD.sub("", text)).split()).strip(" :")


def asked_target(question: str) -> str | None:
    """The thing a question asks for, as a word a field's label would print: "agency" in "Which agency ...?",
    "identifier" in "What is the project identifier?", "date" for "When ...?"; None for other questions."""
    q = " ".join(question.split())
    if re.match(r"^\W*when\b", q, re.I):
        return "date"
    what = _WHAT_IS.match(q)
    if what:
        words = what.group("np").split()
        return words[-1] if words else None
    which = _WHICH.match(q)
    return which.group("noun") if which else None


def asked_field(question: str, fields: Sequence[Field]) -> Field | None:
    """The field ``question`` asks for (module doc), the one sharing most of the question's words; None if none."""
    target = asked_target(question)
    if target is None or len(fields) < MIN_FIELDS:
        return None
    wanted = stems(question) | stems(target)
    best: tuple[float, Field] | None = None
    for field in fields:
        label = stems(field.label)
        if not label or not stems(target) <= label or label <= _ROLES:
            continue
        share = len(label & wanted) / len(label)
        if share >= LABEL_SHARE and (best is None or share > best[0]):
            best = (share, field)
    return best[1] if best else None
