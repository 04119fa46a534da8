"""A row label as the line item it names: without the owners it is attributable to and without what it is stated
net of ("Net income attributable to Zenith Inc." is the net income; "Accounts receivable, net of allowances" the
receivable). Pure."""

from __future__ import annotations

import re

from engine.reading.statement_sense import QUALIFIERS

_OWNERS = re.compile(r"\s+(?:attributable|applicable|available)\s+to\s+(?P<owner>.*)$", re.I)


def owners_share(label: str) -> str:
    """A row label without the owners it is attributable to ("Net income attributable to Zenith Inc. common
    shareholders" -> "Net income"): the owners' share of a line item is the figure analysts quote for it, unless
    the owners are minority holders ("attributable to noncontrolling interests", a ``QUALIFIERS`` word)."""
    owner = _OWNERS.search(label)
    if owner is None or set(re.findall(r"[a-z][a-z\-]*", owner.group("owner").lower())) & QUALIFIERS:
        return label
    return label[: owner.start()]


_NET_OF = re.compile(r"\s*[,—–\-]?\s*\bnet of\b.*$", re.I)
"""A trailing "net of <what was deducted>" ("Accounts receivable — net of allowances of $95 and $103", "Interest
expense, net of amounts capitalized")."""


def item_label(label: str) -> str:
    """A row label as the line item it names: without the owners it is attributable to (``owners_share``) and
    without what it is stated net of: a receivable net of its allowance is the receivable the balance sheet
    reports, not a narrower item."""
    return _NET_OF.sub("", owners_share(label)) or label
