"""Inspect: the audit trail of this session's runs."""

import streamlit as st

from ui.inspect import page
from ui.sidebar import render_sidebar

st.set_page_config(page_title="Loupe · Inspect", page_icon="🔎", layout="wide")
render_sidebar()
page()
