"""Library: documents, profiles, outlines; delete."""

import streamlit as st

from ui.library import page
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Loupe · Library", page_icon="🔎", layout="wide")
render_sidebar()
page()
