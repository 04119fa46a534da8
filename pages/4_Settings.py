"""Settings: preset, backend, strategy and budgets explained."""

from ui.settings_page import page
from ui.sidebar import render_sidebar

page(render_sidebar())
