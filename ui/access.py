"""Sign-in for a team library with access control on: Streamlit's OpenID Connect (``st.login``, ``st.user``).

Access control is on when the operator names the first admins (``LOUPE_ADMINS``) for a team library
(``LOUPE_DATABASE_URL``); the identity provider is configured in ``.streamlit/secrets.toml`` (``[auth]``:
redirect_uri, cookie_secret, client_id, client_secret, server_metadata_url). The embedded default, and a
team library without ``LOUPE_ADMINS``, stay open with no sign-in.

A signed-in user is named by the first of the claims ``email``, ``preferred_username``, ``sub`` the
provider gives: memberships (``python -m engine collections add-member``) use that name.
"""

from __future__ import annotations

import streamlit as st

import engine

USER_CLAIMS = ("email", "preferred_username", "sub")
"""Claims that name a user, in order: an e-mail address is what admins know their colleagues by."""


def access_on() -> bool:
    """Whether this process enforces access control (admins named, a team library configured)."""
    return bool(engine.configured_admins()) and engine.store_kind() == "postgresql"


def current_user() -> str | None:
    """The signed-in user's name (None with access control off, or before sign-in)."""
    if not access_on() or not st.user.is_logged_in:
        return None
    for claim in USER_CLAIMS:
        value = st.user.get(claim)
        if value:
            return str(value)
    return None


def is_admin() -> bool:
    """Whether the signed-in user is one of the operator's admins (they read the audit log)."""
    user = current_user()
    return user is not None and user in engine.configured_admins()


def gate() -> None:
    """With access control on: a sign-in screen until the user signs in, then who is signed in and sign-out."""
    if not access_on():
        return
    if not st.user.is_logged_in:
        st.title("Loupe")
        st.write("This team library shows each person the collections they belong to. Sign in to continue.")
        if st.button("Sign in", type="primary"):
            st.login()
        st.stop()
    user = current_user()
    if user is None:
        st.error("Your sign-in gave no e-mail, user name or subject; ask the operator to check the provider.")
        st.stop()
    with st.sidebar:
        st.caption(f"Signed in as **{user}**")
        st.button("Sign out", on_click=st.logout)
