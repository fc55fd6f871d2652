"""Inside a layer: the residual stream, what each sublayer adds, LayerNorm statistics, FFN activity."""

import streamlit as st

from ui.i18n import _
from ui.inputs import source_text
from ui.layers.view import choose_stack, ffn_section, layernorm_section, stream_section
from ui.models import selected_model
from ui.navigation import require_entry
from ui.presenter import controls, page_header
from ui.rnn.notice import transformer_only
from ui.trace_cache import cached_run
from ui.trace_download import trace_downloads

require_entry()

bar = page_header(
    _("Inside a layer"),
    _(
        "Every position carries one vector, the **residual stream**, through the layers. Each sublayer reads it "
        "and *adds* an update; LayerNorm keeps its scale in check; the feed-forward block lights up a few of its "
        "hidden units for each token."
    ),
    markdown=True,
)
loaded = selected_model()
if not transformer_only(loaded):
    st.stop()
with controls(bar, _("Input")):
    text = source_text(loaded=loaded)
trace = cached_run(loaded, text)
if trace is not None:
    with controls(bar, _("Stack")):
        analysis, tokens = choose_stack(trace, loaded.config.norm)
    st.subheader(_("The residual stream"))
    stream_section(analysis, tokens)
    st.subheader("LayerNorm")
    layernorm_section(analysis, tokens)
    st.subheader(_("Feed-forward"))
    ffn_section(analysis, tokens)
    trace_downloads(trace, "inside-a-layer")
