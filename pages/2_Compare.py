"""Compare: one question, every strategy, side by side."""

import streamlit as st

from ui.compare import page
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Loupe · Compare", page_icon="🔎", layout="wide")
page(render_sidebar())
