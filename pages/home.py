"""Landing page: what the lab is, and a link to each page."""

import streamlit as st

st.title("Attention Lab")
st.markdown(
    "See every number a small Transformer computes. The models here were trained in seconds on a CPU "
    "by this repository's own training command; pick one in the sidebar."
)
