"""The Streamlit-aware helpers of the Loupe app: session state, sidebar, engine access, views."""
