"""History: the saved runs, to search, reopen, re-run, compare and delete."""

from ui.history import page
from ui.sidebar import render_sidebar

page(render_sidebar())
