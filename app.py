"""Attention Lab entry point: page config, navigation over pages/, the shared sidebar."""

import streamlit as st

from ui.sidebar import render_sidebar

st.set_page_config(page_title="Attention Lab", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("pages/home.py", title="Home", icon="🏠", default=True),
    st.Page("pages/step_by_step.py", title="Step by step", icon="🧮", url_path="step-by-step"),
]

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
