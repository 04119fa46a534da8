"""Contact details a question asks for: a telephone or fax number, an e-mail address, a web address.

"What is the telephone number of the Harbour Clinic?" is answered by a number printed as a telephone
number in the passage that names the clinic, not by the passage's best sentence. ``asked_contact`` reads
which kind is asked; ``contacts_in`` finds the values of that kind a text prints, each with the line it
sits on. A telephone number is told from other figures by its shape (eight to fifteen digits in groups,
no thousands commas) and by a cue before it ("Tel", "phone", "call"), or a shape no amount has ("(0)",
a leading "+", an area code in parentheses). Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

ContactKind = Literal["telephone", "fax", "email", "web"]

_ASKED: tuple[tuple[ContactKind, re.Pattern[str]], ...] = (
    ("fax", re.compile(r"\bfax(?:\s+(?:number|no\.?))?\b", re.I)),
    ("telephone", re.compile(r"\b(?:tele)?phone(?:\s+(?:number|no\.?))?\b|\b(?:hotline|helpline)\b|\btel\.?\s", re.I)),
    ("email", re.compile(r"\be-?mail(?:\s+address)?\b", re.I)),
    ("web", re.compile(r"\b(?:web\s?site|web\s+address|url|home\s?page)\b", re.I)),
)
_ASKS = re.compile(r"^\W*(?:what|which|where|give|list|tell me|how (?:can|do) i (?:contact|reach|call))\b", re.I)
"""A question that asks for the detail (not "Does the clinic have a website?")."""

_PHONE = re.compile(
    r"(?<![\w.,/-])(?:\+\s?\d{1,3}[\s.-]?)?(?:\(\d{1,5}\)[\s.-]?)?\d{1,6}(?:[\s.-]\d{2,8}){1,4}(?![\w,/]|\.\d)"
)
_CUE = re.compile(r"\b(?:tel(?:ephone)?|phone|call|hotline|helpline|ring|fax)\b", re.I)
"""A word that says what the number after it is ("Tel:", "call us on", "Fax"): the nearest one decides."""
_YEARS = re.compile(r"^(?:(?:19|20)\d\d[\s.-]*)+$")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_WEB = re.compile(r"\b(?:https?://|www\.)[^\s<>\"'()]+[^\s<>\"'().,;:]", re.I)
CUE_WINDOW = 30
"""How far before a number (in characters) its cue may sit: "Telephone: 01234 567890", "call us on ..."."""


@dataclass(frozen=True)
class Contact:
    """One contact detail printed in a text, with the line it is printed on."""

    kind: ContactKind
    value: str
    line: str


def asked_contact(question: str) -> ContactKind | None:
    """The kind of contact detail ``question`` asks for, else None."""
    if not _ASKS.search(question):
        return None
    return next((kind for kind, pattern in _ASKED if pattern.search(question)), None)


def contacts_in(text: str, kind: ContactKind) -> list[Contact]:
    """The details of ``kind`` that ``text`` prints, in order, each once."""
    found: list[Contact] = []
    for line in text.split("\n"):
        for value in _values(line, kind):
            if all(c.value != value for c in found):
                found.append(Contact(kind, value, " ".join(line.split())))
    return found


def _values(line: str, kind: ContactKind) -> list[str]:
    if kind == "email":
        return [m.group(0).rstrip(".") for m in _EMAIL.finditer(line)]
    if kind == "web":
        return [m.group(0) for m in _WEB.finditer(line) if "@" not in m.group(0)]
    values = []
    for m in _PHONE.finditer(line):
        digits = sum(c.isdigit() for c in m.group(0))
        window = line[max(0, m.start() - CUE_WINDOW) : m.start()]
        cue = next(reversed(list(_CUE.finditer(window))), None)
        cued = cue is not None and (cue.group(0).lower() == "fax") == (kind == "fax")
        shaped = cue is None and m.group(0).lstrip().startswith(("+", "(")) and kind == "telephone"
        if 8 <= digits <= 15 and (cued or shaped) and not _YEARS.match(m.group(0)):
            values.append(m.group(0).strip())
    return values
