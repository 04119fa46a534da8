"""Compare: one question, every strategy, side by side."""

from ui.compare import page
from ui.sidebar import render_sidebar

page(render_sidebar())
