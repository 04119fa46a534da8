"""Loupe: Streamlit entry point and the Ask page (upload or pick PDFs, ask, see why)."""

import streamlit as st

from ui.ask import page
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Loupe · Ask", page_icon="🔎", layout="wide")
page(render_sidebar())
