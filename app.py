"""Attention Lab entry point: page config, navigation over views/, the shared sidebar.

The page scripts live in views/, not pages/: Streamlit treats a folder named pages/ beside the entry
file as an old-style multipage app until st.navigation has run once, which breaks the first deep link
after a server start (no sidebar, or a "Page not found" dialog for /step-by-step and the like)."""

import streamlit as st

from ui.sidebar import render_sidebar

st.set_page_config(page_title="Attention Lab", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("views/home.py", title="Home", icon="🏠", default=True),
    st.Page("views/step_by_step.py", title="Step by step", icon="🧮", url_path="step-by-step"),
    st.Page("views/attention.py", title="Attention", icon="🔦", url_path="attention"),
    st.Page("views/positional_encoding.py", title="Positional encoding", icon="〰️", url_path="positional-encoding"),
    st.Page("views/train.py", title="Train", icon="🏋️", url_path="train"),
    st.Page("views/inside_a_layer.py", title="Inside a layer", icon="🔬", url_path="inside-a-layer"),
]

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
