"""Loupe: Streamlit entry point (landing page)."""

import streamlit as st

st.set_page_config(page_title="Loupe", page_icon="🔎", layout="wide")
st.title("Loupe")
st.write("Ask hard questions of PDF documents. The app is being assembled.")
