"""Abbreviations a document defines ("Quahog Ferries North (QFN)"), read back into the rows that use them.

A filing names its segments in full once ("Quahog Ferries North (QFN)") and labels its tables with the short form
("QFN | 416 | 388"). A question names the segment in full, so without the definition the row naming it is
not found, and the company's total answers for the segment. A row labelled exactly with a defined abbreviation
reads "QFN (Quahog Ferries North)". Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from engine.documents.text import stem
from engine.reading.table_values import Cell

_DEFINED = re.compile(
    r"((?:(?:[A-Z][\w&’'.-]*|and|of|the|for|&)\s+){0,6}[A-Z][\w&’'.-]*)\s+\(\s*[“\"]?([A-Z][A-Za-z&]{1,7})[”\"]?\s*\)"
)
"""A capitalised name (connectives allowed inside) followed by a short form in parentheses."""
_LOWER_DEFINED = re.compile(r"((?:[a-z][\w-]*\s+){1,5}[a-z][\w-]*)\s+\(\s*[“\"]?([A-Z]{2,7})(s?)[”\"]?\s*\)")
"""A name in lower case followed by its initials in capitals, perhaps plural: "monthly active users (“MAUs”)"."""
MIN_CAPITALS = 2
"""A short form has two capitals or more ("QFN", "SoC"); "(Note)" or "(Other)" defines nothing."""


def defined_abbreviations(texts: Iterable[str]) -> dict[str, str]:
    """Short form -> full name, for every definition in ``texts`` whose short form spells the name's words (its
    letters in order, the first one the name's first): "Quahog Ferries North (QFN)", "Southern Cargo (SoC)";
    not "Annual Report (Form)". The first definition of a short form holds."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _DEFINED.finditer(text):
            short = m.group(2)
            if short in found or sum(1 for c in short if c.isupper()) < MIN_CAPITALS:
                continue
            name = _spelled(m.group(1).split(), short)
            if name is not None:
                found[short] = name
        for m in _LOWER_DEFINED.finditer(text):
            words = m.group(1).split()[-len(m.group(2)) :]
            if "".join(w[0] for w in words).upper() == m.group(2) and len(words) == len(m.group(2)):
                found.setdefault(m.group(2) + m.group(3), " ".join(words))  # its initials, letter for letter
    return found


def _spelled(words: Sequence[str], short: str) -> str | None:
    """The longest tail of ``words`` (two words or more) that starts with a capitalised word of the short form's
    first letter and holds its letters in order, else None."""
    for start in range(len(words) - 1):
        tail = words[start:]
        if not tail[0][:1].isupper() or tail[0][:1] != short[0].upper():
            continue  # a name starts with a capital word, never a connective ("and Harbour Tugs")
        letters = "".join(tail).lower()
        position = 0
        for c in short.lower():
            position = letters.find(c, position) + 1
            if position == 0:
                break
        else:
            return " ".join(tail)
    return None


def with_long_names(cells: list[Cell], abbreviations: dict[str, str]) -> list[Cell]:
    """``cells`` with each table row labelled exactly by a defined short form labelled with its name as well, and
    each row whose caption prints a defined short form ("our average MAUs by segment") captioned with its name."""
    if not abbreviations:
        return cells
    return [
        _captioned(replace(cell, label=f"{cell.label} ({abbreviations[cell.label.strip()]})"), abbreviations)
        if cell.is_row and cell.label.strip() in abbreviations
        else _captioned(cell, abbreviations)
        if cell.is_row and cell.caption
        else cell
        for cell in cells
    ]


_CAMEL = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][A-Za-z]*)+\b")
"""A name written in camel case with two capitals or more ("KestrelQA", "HeronBench")."""


def capital_forms(question: str) -> dict[str, str]:
    """Short form -> stem of the name, for each camel-case name of ``question`` spelled by three capitals or more: a
    results table heads a column "KQA Hard" for the "KestrelQA" a question names ("HB" for "HeronBench" is too short
    to tell from other headers)."""
    found: dict[str, str] = {}
    for m in _CAMEL.finditer(question):
        short = "".join(ch for ch in m.group(0) if ch.isupper())
        if len(short) >= MIN_CAPITALS + 1:
            found[short.lower()] = stem(m.group(0))
    return found


def with_capital_forms(header_stems: set[str], forms: dict[str, str]) -> set[str]:
    """``header_stems`` with each short form among them read as its name (see ``capital_forms``)."""
    return {forms.get(s, s) for s in header_stems} if forms else header_stems


def _captioned(cell: Cell, abbreviations: dict[str, str]) -> Cell:
    """``cell`` with the names of the short forms its caption prints added to the caption."""
    names = [abbreviations[w] for w in dict.fromkeys(re.findall(r"[A-Za-z&]+", cell.caption)) if w in abbreviations]
    return replace(cell, caption=f"{cell.caption} ({'; '.join(names)})") if names else cell
