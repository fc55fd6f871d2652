"""Positional encoding: the sinusoidal table, the encoding the loaded model adds, and what breaks without it."""

import streamlit as st

from ui.i18n import _
from ui.inputs import fit_to_limit, source_text
from ui.models import selected_model
from ui.navigation import require_entry
from ui.positional.view import ablation_section, model_encoding, sinusoidal_lab
from ui.presenter import controls, page_header
from ui.rnn.notice import is_transformer, transformer_only
from ui.tokens import source_tokens
from ui.trace_cache import cached_run
from ui.trace_download import trace_downloads

require_entry()

bar = page_header(
    _("Positional encoding"),
    _(
        "Attention by itself ignores word order: it compares every token with every other token. "
        "A positional encoding, added to each token's embedding, tells the model where each token stands."
    ),
)

loaded = selected_model()

st.header(_("The sinusoidal table"))
width = loaded.config.d_model if is_transformer(loaded) else 64  # an RNN has no d_model: start at the usual one
sinusoidal_lab(min(256, max(8, width // 8 * 8)))  # the slider moves in steps of 8

st.header(_("The encoding this model adds"))
if not transformer_only(loaded):
    st.stop()
with controls(bar, _("Input")):
    text = fit_to_limit(loaded, source_text())
trace = cached_run(loaded, text)
if trace is None:
    st.stop()
source_tokens(trace)
model_encoding(loaded, trace)
trace_downloads(trace, "positional-encoding")

st.header(_("What breaks without it"))
st.caption(
    _(
        "Without positions the encoder sees a bag of words, so the attention can no longer follow the order: "
        "compare the prediction and the cross-attention with and without."
    )
)
ablation_section(loaded, text, trace)
