"""Attention: every layer and head for one input, one head large, a BertViz-style head view, summaries."""

import streamlit as st

from ui.attention.knockout import knockout_section
from ui.attention.view import attention_section
from ui.classroom.ask import question_panel
from ui.i18n import _
from ui.inputs import source_text
from ui.models import selected_model
from ui.navigation import require_entry
from ui.presenter import controls, page_header
from ui.rnn.notice import transformer_only
from ui.tokens import show_tokens, source_tokens, token_chips
from ui.trace_cache import cached_run
from ui.trace_download import trace_downloads

require_entry()

bar = page_header(
    _("Attention"),
    _(
        "Type an input: the model runs on it and every attention weight it computed is drawn below. "
        "Each row of an attention matrix is one query token; its weights over the keys sum to 1."
    ),
)

loaded = selected_model()
if not transformer_only(loaded):
    st.stop()
with controls(bar, _("Input")):
    text_col, target_col = st.columns([3, 2])
    with text_col:
        text = source_text()
    with target_col:
        target = st.text_input(
            _("Target (optional)"),
            key="target",
            bind="query-params",
            max_chars=2000,
            placeholder=_("blank: the model's own output"),
            help=_("Teacher-force the decoder on this output instead of the model's own answer."),
        )

trace = cached_run(loaded, text, target)
if trace is None:
    st.stop()

source_tokens(trace)
if trace.prediction is not None:
    output = token_chips(trace.prediction.split()) or _("(empty)")
    st.markdown(_("**Model output:** {tokens}").format(tokens=output))
    st.caption(_("The decoder reads `<bos>` followed by this output: one row of its attention per position."))
else:
    show_tokens(
        _("Decoder input:"),
        trace.tokens("tgt"),
        trace.unknown_target,
        _("Target words not in the vocabulary (read as <unk>): {words}"),
    )
    st.caption(_("The decoder input is your target (teacher forcing); clear it to see the model's own output."))

knockout = knockout_section(loaded, text, target, trace, bar)
attention_section(trace, knockout)
question_panel(loaded, text, target, trace)
if knockout:
    trace_downloads(knockout.off, "attention", heads_off=knockout.code, off_word=knockout.word)
else:
    trace_downloads(trace, "attention")
