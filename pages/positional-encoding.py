"""Positional encoding: the sinusoidal table, the encoding the loaded model adds, and what breaks without it."""

import streamlit as st

from ui.inputs import fit_to_limit, source_text
from ui.models import selected_model
from ui.navigation import require_entry
from ui.positional.view import ablation_section, model_encoding, sinusoidal_lab
from ui.tokens import show_tokens
from ui.trace_cache import cached_run

require_entry()

st.title("Positional encoding")
st.caption(
    "Attention by itself ignores word order: it compares every token with every other token. "
    "A positional encoding, added to each token's embedding, tells the model where each token stands."
)

loaded = selected_model()

st.header("The sinusoidal table")
sinusoidal_lab(min(256, max(8, loaded.config.d_model // 8 * 8)))  # the slider moves in steps of 8

st.header("The encoding this model adds")
text = fit_to_limit(loaded, source_text())
trace = cached_run(loaded, text)
if trace is None:
    st.stop()
show_tokens("Source tokens:", trace.tokens("src"), trace.unknown, "Not in this model's vocabulary (read as <unk>):")
model_encoding(loaded, trace)

st.header("What breaks without it")
st.caption(
    "Without positions the encoder sees a bag of words, so the attention can no longer follow the order: "
    "compare the prediction and the cross-attention with and without."
)
ablation_section(loaded, text, trace)
