"""Polish: the theme follows the browser, a citation link lands with the card's title in view, suggestion
buttons show the whole question on hover."""

from __future__ import annotations

import tomllib
from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine import SAMPLE_QUESTIONS
from tests.app.conftest import APP

CONFIG = Path(APP).parent / ".streamlit" / "config.toml"


def test_the_theme_is_not_forced() -> None:
    theme = tomllib.loads(CONFIG.read_text())["theme"]
    assert "base" not in theme  # no base: light or dark as the browser asks
    assert not {k for k, v in theme.items() if not isinstance(v, dict)}  # any [theme] option forces a light theme
    assert theme["light"]["primaryColor"] and theme["dark"]["primaryColor"]


def test_a_citation_target_keeps_clear_of_the_header(app_engine: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at = at.button(key="loupe_suggest_0").click().run()
    anchors = [m.value for m in at.markdown if str(m.value).startswith('<div id="evidence-')]
    assert anchors and all("scroll-margin-top" in a for a in anchors)


def test_suggestions_show_the_whole_question_on_hover(app_engine: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    for n, question in enumerate(SAMPLE_QUESTIONS):
        assert at.button(key=f"loupe_suggest_{n}").help == question
