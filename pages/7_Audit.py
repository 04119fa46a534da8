"""Audit: who asked what of which documents, who uploaded, deleted or changed members (the operator's admins)."""

import streamlit as st

import engine
from ui import access, safe, services

st.title("Audit log")
if not access.is_admin():
    st.info("Only the admins the operator named (LOUPE_ADMINS) read the audit log.")
    st.stop()
try:
    rows = engine.open_collections(services.database_url(), access.current_user()).audit_log(500)
except engine.LoupeError as error:
    st.error(safe.inline(str(error)))
    st.stop()
st.dataframe(
    [{"when": r.at.isoformat(timespec="seconds"), "user": r.user, "action": r.action, "collection": r.collection,
      "detail": ", ".join(f"{k}: {v}" for k, v in r.detail.items())} for r in rows],
    hide_index=True, use_container_width=True,
)  # fmt: skip
