"""Ask: a conversation over PDFs, with the reasons behind every answer."""

from ui.ask import page
from ui.sidebar import render_sidebar

page(render_sidebar())
