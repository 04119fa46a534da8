"""Settings: preset, backend, strategy and budgets explained."""

import streamlit as st

from ui.settings_page import page
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Loupe · Settings", page_icon="🔎", layout="wide")
page(render_sidebar())
