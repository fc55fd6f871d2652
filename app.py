"""Attention Lab entry point: page config, navigation over views/, the shared sidebar.

The page scripts live in views/, not pages/: Streamlit treats a folder named pages/ beside the entry
file as an old-style multipage app until st.navigation has run once, which breaks the first deep link
after a server start (no sidebar, or a "Page not found" dialog for /step-by-step and the like)."""

import streamlit as st
import torch

from ui.sidebar import render_sidebar
from ui.training import TRAIN_URL_PATH, stop_training_if_left

# One intra-op thread per forward pass. Our models are tiny, and the browser, the server and other sessions
# share two cores: with torch's default of two threads the Attention page's model run took ~26 ms p50 while
# Chromium painted, with one ~10 ms (bench/ui_latency.py's default edit went from ~420 to ~340 ms).
# set_num_threads also sets the count every later thread starts with, so Streamlit's script threads get it.
torch.set_num_threads(1)

st.set_page_config(page_title="Attention Lab", page_icon="🔎", layout="wide")

PAGES = [
    st.Page("views/home.py", title="Home", icon="🏠", default=True),
    st.Page("views/step_by_step.py", title="Step by step", icon="🧮", url_path="step-by-step"),
    st.Page("views/attention.py", title="Attention", icon="🔦", url_path="attention"),
    st.Page("views/positional_encoding.py", title="Positional encoding", icon="〰️", url_path="positional-encoding"),
    st.Page("views/train.py", title="Train", icon="🏋️", url_path=TRAIN_URL_PATH),
    st.Page("views/inside_a_layer.py", title="Inside a layer", icon="🔬", url_path="inside-a-layer"),
]

navigation = st.navigation(PAGES)
stop_training_if_left(navigation.url_path)
render_sidebar()
navigation.run()
