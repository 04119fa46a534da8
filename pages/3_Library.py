"""Library: documents, profiles, outlines; delete."""

from ui.library import page
from ui.sidebar import render_sidebar

render_sidebar()
page()
