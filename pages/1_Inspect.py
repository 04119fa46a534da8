"""Inspect: the audit trail of this session's runs."""

from ui.inspect import page
from ui.sidebar import render_sidebar

render_sidebar()
page()
