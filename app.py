"""Loupe: the Streamlit entry point. Page configuration and the navigation between the pages."""

import streamlit as st

from ui import access

st.set_page_config(page_title="Loupe", page_icon="🔎", layout="wide")
access.gate()  # with access control on (LOUPE_ADMINS, a team library): sign in first
audit = [st.Page("pages/7_Audit.py", title="Audit", icon=":material/policy:")] if access.is_admin() else []
navigation = st.navigation(
    [
        st.Page("pages/0_Ask.py", title="Ask", icon=":material/forum:", default=True),
        st.Page("pages/6_History.py", title="History", icon=":material/history:"),
        st.Page("pages/1_Inspect.py", title="Inspect", icon=":material/troubleshoot:"),
        st.Page("pages/2_Compare.py", title="Compare", icon=":material/compare_arrows:"),
        st.Page("pages/3_Library.py", title="Library", icon=":material/folder_open:"),
        st.Page("pages/5_Evaluate.py", title="Evaluate", icon=":material/fact_check:"),
        st.Page("pages/4_Settings.py", title="Settings", icon=":material/tune:"),
        *audit,
    ]
)
navigation.run()
