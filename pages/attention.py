"""Attention: every layer and head for one input, one head large, a BertViz-style head view, summaries."""

import streamlit as st

from ui.attention.view import attention_section
from ui.classroom.ask import question_panel
from ui.inputs import source_text
from ui.models import selected_model
from ui.navigation import require_entry
from ui.tokens import show_tokens, token_chips
from ui.trace_cache import cached_run

require_entry()

st.title("Attention")
st.caption(
    "Type an input: the model runs on it and every attention weight it computed is drawn below. "
    "Each row of an attention matrix is one query token; its weights over the keys sum to 1."
)

loaded = selected_model()
text_col, target_col = st.columns([3, 2])
with text_col:
    text = source_text()
with target_col:
    target = st.text_input(
        "Target (optional)",
        key="target",
        bind="query-params",
        max_chars=2000,
        placeholder="blank: the model's own output",
        help="Teacher-force the decoder on this output instead of the model's own answer.",
    )

trace = cached_run(loaded, text, target)
if trace is None:
    st.stop()

show_tokens("Source tokens:", trace.tokens("src"), trace.unknown, "Not in this model's vocabulary (read as <unk>):")
if trace.prediction is not None:
    st.markdown(f"**Model output:** {token_chips(trace.prediction.split()) or '(empty)'}")
    st.caption("The decoder reads `<bos>` followed by this output: one row of its attention per position.")
else:
    show_tokens(
        "Decoder input:",
        trace.tokens("tgt"),
        trace.unknown_target,
        "Target words not in the vocabulary (read as <unk>):",
    )
    st.caption("The decoder input is your target (teacher forcing); clear it to see the model's own output.")

attention_section(trace)
question_panel(loaded, text, target, trace)
