"""Landing page: what the lab is, and a link to each page."""

import streamlit as st

st.title("Attention Lab")
st.markdown(
    "See every number a small Transformer computes. The models here are encoder–decoder Transformers "
    "laid out as in *Attention Is All You Need* (2017), trained in seconds on a CPU by this repository's "
    "own training command. Pick one in the sidebar; every page follows your choice and your input, and "
    "every view has its own link you can share."
)

SECTIONS = [
    ("views/attention.py", "Attention", "🔦",
     "Type a sentence and see every layer's and every head's attention at once: encoder self-attention, "
     "masked decoder self-attention and cross-attention, a head view, entropy and rollout."),
    ("views/step_by_step.py", "Step by step", "🧮",
     "Walk through softmax(QKᵀ/√dₖ)V one step at a time with the real numbers in the formulas; "
     "edit X and the weights, change the mask, switch off the scaling."),
    ("views/positional_encoding.py", "Positional encoding", "〰️",
     "The sinusoidal table, how positions resemble each other, and what the model does without positions."),
    ("views/inside_a_layer.py", "Inside a layer", "🔬",
     "The residual stream, what attention and the feed-forward block each add, LayerNorm statistics."),
    ("views/train.py", "Train", "🏋️",
     "Train a model from random weights in seconds and watch a head's attention form."),
]  # fmt: skip

columns = st.columns(2)
for i, (path, title, icon, blurb) in enumerate(SECTIONS):
    with columns[i % 2].container(border=True):
        st.page_link(path, label=f"**{title}**", icon=icon)
        st.caption(blurb)
