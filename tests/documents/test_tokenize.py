"""Tokens are the same whether a text is lowered before matching (ASCII text) or token by token (any other)."""

from __future__ import annotations

import re

from engine.documents.text import tokenize

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-_/%$]*[A-Za-z0-9%]|[A-Za-z0-9]")


def _token_by_token(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text.replace(",", ""))]


def test_ascii_and_other_texts_give_the_tokens_matched_one_by_one():
    texts = [
        "Net Sales of $1,200.5 million (10-K, FY2018) rose 3.5% in Q4",
        "İstanbul and the KELVIN sign K: lowering them first would add letters",
        "Straße, Æon and café: non-ASCII words around ASCII TOKENS like mmdet.models",
        "",
        "loss_cls / loss_bbox, a-b-c.",
    ]
    for text in texts:
        assert tokenize(text) == _token_by_token(text)
