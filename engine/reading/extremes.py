"""Superlative and two-way questions over a table: which row (or column) holds the extreme value.

"Which setting gives the highest accuracy?", "Which model does best on dataset D?", "What is the lowest
error of model M?", "Which is larger, X or Y?": the question names a direction (a superlative or a
comparative) and a measure; the table names the measure in a column header (or a row label). The cell
picked is the extreme of that column over the rows the question names (all rows when it names none), or
of that row over its columns; the answer is the picked cell's row (or column) with its value. Nothing is
picked unless a header or label of the table names a word of the question. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.documents.text import STOPWORDS, stem
from engine.reading.table_values import TOTAL_ROW, Cell

Direction = Literal["max", "min", "best", "worst"]

_DIRECTIONS: tuple[tuple[str, Direction], ...] = (
    (
        r"highest|largest|greatest|biggest|most(?!\s+(?:recent|recently|current)\b)|maximum|longest|higher|larger|greater"
        r"|bigger|more(?!\s+(?:recent|recently|current)\b)",
        "max",
    ),
    (r"lowest|smallest|least|fewest|minimum|shortest|lower|smaller|less|fewer", "min"),
    (r"best|better|outperforms?", "best"),
    (r"worst|worse|underperforms?", "worst"),
)
"""General English superlatives and comparatives, by the direction they pick ("most recent" and "more current"
say when, not how much). "best" and "worst" pick by
the measure's orientation (``lower_is_better``); the others pick the number itself ("the highest error" is
the largest error)."""
_SUPERLATIVE = re.compile(r"(?<!\bat )(?<!\bno )\b(?:" + "|".join(p for p, _ in _DIRECTIONS) + r")\b", re.I)
"""A superlative or comparative word; "at least", "at most", "no more" are bounds, not picks."""
_COMPARATIVE = re.compile(r"^(?:higher|larger|greater|bigger|more|lower|smaller|less|fewer|better|worse)$", re.I)
_ASKS_WHICH = re.compile(r"\b(?:which|what|who)\b", re.I)
_YES_NO = re.compile(r"^\W*(?:is|are|was|were|does|do|did|can|could|has|have|had|will|would|should)\b", re.I)
"""A question that asks for something (which, what, who; also after a lead-in: "Among A, B and C, which
...?"); one opening with an auxiliary ("Is X the highest?") asks for a verdict, not a pick."""
_NO_PICK = re.compile(r"\b(?:how many|how much|top \d|top (?:two|three|four|five))\b", re.I)
"""A count ("how many have the highest ...") or several extremes ("the top 3") is not one pick."""
_LOWER_BETTER_HEADER = re.compile(
    r"↓|\b(?:error|errors|loss|perplexity|ppl|wer|cer|mae|mse|rmse|latency|distance|fid)\b", re.I
)
"""A column whose header marks it lower-is-better: the "↓" arrow papers print, or a measure that is an
error, a loss or a cost by its name (error rates, perplexity, mean errors, latency, FID)."""
GENERIC_MEASURES = frozenset((
    "score", "scores", "value", "values", "number", "numbers", "result", "results", "performance", "performs",
    "perform", "performed", "metric", "metrics", "figure", "figures", "amount", "amounts", "one", "ones",
))  # fmt: skip
"""Words that name no measure of their own ("the highest score"): they match no column header."""
_FRAME = frozenset((
    "which", "what", "who", "whom", "whose", "where", "when", "does", "do", "did", "is", "are", "was", "were",
    "has", "have", "had", "give", "gives", "given", "get", "gets", "achieve", "achieves", "achieved",
    "according", "paper", "report", "table", "document",
))  # fmt: skip
"""Words that frame the question, not what it is about: they match no row or column."""


@dataclass(frozen=True)
class ExtremeAsk:
    """What a superlative or comparative question asks."""

    direction: Direction
    measure: tuple[str, ...]
    """The words right after the superlative ("highest alignment score" -> alignment, score)."""
    terms: tuple[str, ...]
    """Every content word of the question, the superlative and its frame left out."""
    comparative: bool
    asked: tuple[str, ...] = ()
    """The noun phrase after "which" or "what" ("which current liability"): the kind of thing asked."""


def extreme_ask(question: str) -> ExtremeAsk | None:
    """The direction and measure a question asks a pick by, else None (module doc)."""
    if _NO_PICK.search(question) or not _ASKS_WHICH.search(question) or _YES_NO.match(question):
        return None
    found = _SUPERLATIVE.search(question)
    if found is None:
        return None
    word = found.group(0).lower()
    direction = next(d for pattern, d in _DIRECTIONS if re.fullmatch(pattern, word))
    measure = _measure(_words(re.split(r"[,;:?!()]", question[found.end() :])[0]))  # a phrase ends at punctuation
    kind = re.search(r"\b(?:which|what)\s+([A-Za-z][\w\-]*)", question, re.I)
    asked = kind.group(1).lower() if kind else ""
    # the noun right after "which" names the kind of thing asked ("which model"), not a row to keep: a row
    # label holding it ("Transformer (base model)") is no more asked than the others
    terms = tuple(w for w in question_terms(question) if w.lower() not in (word, asked))
    return ExtremeAsk(direction, measure, terms, bool(_COMPARATIVE.match(word)), _asked_noun(question))


def _asked_noun(question: str) -> tuple[str, ...]:
    """The noun phrase right after "which" or "what" ("which current liability" -> current, liability; "which of
    Acme's segments" -> segments); () when a stop word, a frame word or a superlative follows ("which one had",
    "what was", "which is highest")."""
    after = re.search(
        r"\b(?:which|what)\s+(?:of\s+(?:the\s+|its\s+|their\s+)?(?:\S+['’]s\s+)?)?([^,;:?!()]*)", question, re.I
    )
    phrase: list[str] = []
    for word in _words(after.group(1)) if after else []:
        low = word.lower()
        if low in STOPWORDS or low in _FRAME or low == "one" or _SUPERLATIVE.fullmatch(word):
            break
        if phrase and low.endswith("ed"):
            break  # a past-tense verb after the noun ("which company reported", "which region generated")
        phrase.append(word)
    return tuple(phrase[:3])


_CONTAINERS = frozenset(("source", "sources", "component", "components", "type", "types", "kind", "kinds",
                         "category", "categories", "part", "parts", "element", "elements"))  # fmt: skip
"""Nouns that name a share of something, not a measure: "the largest source of revenue" measures revenue."""


def _measure(after: list[str]) -> tuple[str, ...]:
    """The noun phrase after the superlative: its words up to the next stop word, leading stop words
    skipped ("the highest alignment score" -> alignment score; "best on the test set" -> test set); after a
    container noun, what it is a share of ("the largest source of revenue" -> revenue)."""
    while after and after[0].lower() in STOPWORDS:
        after = after[1:]
    phrase: list[str] = []
    for n, word in enumerate(after[:3]):
        if len(phrase) == 1 and phrase[0].lower() in _CONTAINERS and word.lower() == "of":
            return _measure(after[n + 1 :])
        if word.lower() in STOPWORDS or word.lower() in _FRAME:
            break
        phrase.append(word)
    return tuple(phrase)


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9][A-Za-z0-9.+\-@]*[A-Za-z0-9+]|[A-Za-z0-9]", text)


def question_terms(question: str) -> tuple[str, ...]:
    """The question's content words, names kept whole ("GPT-4", "H@10"), its frame words left out."""
    return tuple(w for w in _words(question) if w.lower() not in STOPWORDS and w.lower() not in _FRAME)


def lower_is_better(header: str) -> bool:
    """Whether a column's header says its smaller values are the better ones (``_LOWER_BETTER_HEADER``);
    an "↑" arrow says the opposite whatever the name."""
    return "↑" not in header and bool(_LOWER_BETTER_HEADER.search(header))


def names(header: str, word: str) -> bool:
    """Whether a header or label word names a question word: the same word or stem, or the header's
    abbreviation of it ("Acc." of "accuracy", "Align" of "alignment", three letters at least)."""
    h, w = header.lower().strip(".:,;()*"), word.lower()
    if not h or not w:
        return False
    if h == w or stem(h) == stem(w):
        return True
    if h.split("-")[0] == w and "-" not in w:
        return True  # a family's name names its sized members ("Osprey" names "Osprey-9B", "Osprey-2B")
    return len(h) >= 3 and h.isalpha() and w.startswith(h) and (header.endswith(".") or len(h) >= 4)


def _header_words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s/|]+", text) if w]


def header_named(column: str, terms: Sequence[str]) -> bool:
    """Every word of a column's header is named by the question ("Lakes F1": both words asked)."""
    words = [w for w in re.split(r"[\s/|]+", re.sub(r" #\d+$", "", column)) if w]
    return bool(words) and all(named_count(w, terms) for w in words)


def named_count(text: str, words: Sequence[str]) -> int:
    """How many of ``words`` the header or label ``text`` names (a multi-part name counts whole: "GPT-4")."""
    parts = _header_words(text)
    return sum(1 for w in words if any(names(p, w) or p.lower() == w.lower() for p in parts))


@dataclass(frozen=True)
class Pick:
    """The extreme cell and what it was picked among."""

    cell: Cell
    among: tuple[Cell, ...]
    axis: Literal["row", "column"]
    """What the answer names: the picked cell's row label, or its column header."""
    lower_better: bool


def pick_extreme(ask: ExtremeAsk, tables: Sequence[Sequence[Cell]]) -> Pick | None:
    """The extreme cell of the table whose headers and labels name the question best; among equals, the
    first table (tables come in evidence order)."""
    best: tuple[tuple[int, int], Pick] | None = None
    for table in tables:
        found = _pick_in(ask, list(table))
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    return best[1] if best else None


def distinct_columns(table: list[Cell]) -> list[Cell]:
    """The cells with each column told apart from an equally named one of the same row ("F1." under two
    headings): the second is named "F1. #2"."""
    seen: dict[tuple[str, str, str], int] = {}
    out = []
    for cell in table:
        key = (cell.chunk_id, cell.label, cell.column)
        seen[key] = seen.get(key, 0) + 1
        out.append(replace(cell, column=f"{cell.column} #{seen[key]}") if seen[key] > 1 and cell.column else cell)
    return out


def _pick_in(ask: ExtremeAsk, table: list[Cell]) -> tuple[tuple[int, int], Pick] | None:
    table = distinct_columns(table)
    measure = [w for w in ask.measure if w.lower() not in GENERIC_MEASURES]
    terms = [w for w in ask.terms if w.lower() not in GENERIC_MEASURES]
    columns = list(dict.fromkeys(c.column for c in table if c.column))
    labels = list(dict.fromkeys(c.label for c in table))
    by_measure = {c: named_count(c, measure) for c in columns}
    top_measure = max(by_measure.values(), default=0)
    # a column names the measure when its header names every word of it ("net" alone is not "net revenue")
    named_columns = [c for c in columns if measure and by_measure[c] == len(measure)]
    if not measure and len(columns) == 1:
        named_columns = columns  # "which is larger, X or Y?" over a table of one value column: that column
    heads = [c for c in columns if measure and named_count(c, measure[-1:]) == 1
             and named_count(c, measure) == len(_header_words(c))]  # fmt: skip
    if not named_columns and len(heads) == 1:  # the one column whose header is the measure's head noun and
        named_columns = heads  # none of its other words ("Sales" for "net sales"; "Net" is no "net revenue")
    row_score = {r: named_count(r, terms) for r in labels}
    top_row = max(row_score.values(), default=0)
    rows = [r for r in labels if row_score[r] == top_row] if top_row else labels
    if top_row:  # a row named whole is named as well as a longer one ("Health Care or Consumer")
        rows += [r for r in labels if r not in rows and 0 < row_score[r] == len(_header_words(r))]
    # columns the question names whole by any of its words ("recall or precision" after "higher for M")
    options = [c for c in columns if header_named(c, terms)] if not named_columns else []
    if len(rows) == 1 and (len(named_columns) >= 2 or len(options) >= 2 or not measure):
        # one row named, and the measure is several of its columns ("F1" under two headings), or the question
        # names two columns or more, or no measure ("the highest number for M"): the pick is among that row's
        # columns, never among periods (which year is highest is a time series' question, the value reader's)
        pool = named_columns if len(named_columns) >= 2 else options if len(options) >= 2 else columns
        among = [c for c in table if c.label == rows[0] and c.column in pool and not c.periods]
        axis: Literal["row", "column"] = "column"
    elif named_columns and len(rows) >= 2:
        # a column names the measure: the pick is among its rows (those the question names, if any); of
        # equally named columns the one the question's other words name too, else the first as printed
        column = max(named_columns, key=lambda c: (named_count(c, terms), -named_columns.index(c)))
        among = [c for c in table if c.column == column and c.label in rows]
        axis = "row"
    elif not named_columns and len(measure_rows := _rows_naming(labels, measure)) == 1:
        # the table runs the other way: a row label names the measure ("# sites" over one column per lake);
        # the pick is among its columns, except columns of periods (a time series is the value reader's,
        # with its "Change" columns and fiscal periods)
        among = [c for c in table if c.label == measure_rows[0] and c.column and not c.periods]
        axis = "column"
    else:
        return None  # no header names the measure, or one row and one column: a lookup, not a pick
    if axis == "row":  # a table's total is the sum of the rows compared, not one of them ("Total Company")
        among = [c for c in among if not TOTAL_ROW.match(c.label)] or among
    if len({c.label if axis == "row" else c.column for c in among}) < 2 or len({_kind(c.unit) for c in among}) > 1:
        return None  # nothing to pick among, or values of different kinds
    lower = axis == "row" and lower_is_better(among[0].column)
    pick_max = {"max": True, "min": False, "best": not lower, "worst": lower}[ask.direction]
    cell = (max if pick_max else min)(among, key=lambda c: c.value)
    return (top_measure + top_row, len(among)), Pick(cell, tuple(among), axis, lower)


def _kind(unit: str) -> str:
    """What a value's unit says it is: a percentage, or an amount (a table prints its currency sign on its first
    row only: "$ 6,021" over "4,796")."""
    return "%" if unit == "%" else "amount"


def _rows_naming(labels: list[str], measure: list[str]) -> list[str]:
    """The row labels that name every word of the measure."""
    return [label for label in labels if measure and named_count(label, measure) == len(measure)]


def pick_statement(pick: Pick, ask: ExtremeAsk) -> str:
    """ "Kestrel (0.2): Acc. 81.5 (the highest of 3 rows)." (ties named)."""
    cell = pick.cell
    name, other = (cell.label, cell.column) if pick.axis == "row" else (cell.column, cell.label)
    word = {"max": "highest", "min": "lowest", "best": "best", "worst": "worst"}[ask.direction]
    kind = "rows" if pick.axis == "row" else "columns"
    notes = [f"the {word} of {len(pick.among)} {kind}"]
    if ask.direction in ("best", "worst"):
        notes.append("lower is better" if pick.lower_better else "higher is better")
    tie = [c.label if pick.axis == "row" else c.column for c in pick.among if c is not cell and c.value == cell.value]
    if tie:
        notes.append(f"tied with {', '.join(tie)}")
    return f"{name}: {other} {cell.raw} ({'; '.join(notes)})."
