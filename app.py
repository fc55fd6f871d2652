"""Attention Lab entry point: page config, navigation over pages/, the shared sidebar."""

import streamlit as st

from ui.sidebar import render_sidebar

st.set_page_config(page_title="Attention Lab", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("pages/home.py", title="Home", icon="🏠", default=True),
    st.Page("pages/step_by_step.py", title="Step by step", icon="🧮", url_path="step-by-step"),
    st.Page("pages/attention.py", title="Attention", icon="🔦", url_path="attention"),
    st.Page("pages/positional_encoding.py", title="Positional encoding", icon="〰️", url_path="positional-encoding"),
    st.Page("pages/train.py", title="Train", icon="🏋️", url_path="train"),
    st.Page("pages/inside_a_layer.py", title="Inside a layer", icon="🔬", url_path="inside-a-layer"),
]

navigation = st.navigation(PAGES)
render_sidebar()
navigation.run()
