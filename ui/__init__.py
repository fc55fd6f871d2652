"""Streamlit glue shared by the pages: model loading, session state, sidebar, user-facing words."""
