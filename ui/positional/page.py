"""The Positional-encoding page as a function of its view: `render(view)` draws the page; `render(view, slide=True)`
draws the sinusoidal table beside the encoding the view's model adds to its input, with no controls."""

from __future__ import annotations

import streamlit as st

from model import LoadedEncoder, RNNConfig
from model.gpt import LoadedGPT
from views import PositionalView

from ..attention.page import slide_input
from ..i18n import _
from ..inputs import fit_to_limit, source_text
from ..models import get_model
from ..presenter import controls, page_header, presenting
from ..rnn.notice import transformer_only
from ..tokens import source_tokens
from ..trace_cache import cached_run
from ..trace_download import trace_downloads
from ..widths import chart_share
from .learned import learned_section
from .view import ablation_section, model_encoding, pe_table_chart, sinusoidal_lab

PAGE = PositionalView.PAGE
USUAL_WIDTH = 64  # an RNN has no d_model: the table starts at the usual one


def render(view: PositionalView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, the table beside the model's encoding."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Positional encoding"),
        _(
            "Attention by itself ignores word order: it compares every token with every other token. "
            "A positional encoding, added to each token's embedding, tells the model where each token stands."
        ),
    )
    loaded = get_model(view.common.model)
    st.header(_("The sinusoidal table"))
    config = loaded.config
    width = USUAL_WIDTH if isinstance(config, RNNConfig) else config.d_model
    sinusoidal_lab(min(256, max(8, width // 8 * 8)))  # the slider moves in steps of 8
    st.header(_("The encoding this model adds"))
    if not transformer_only(loaded):
        return
    with controls(bar, _("Input")):
        text = fit_to_limit(loaded, source_text())
    trace = cached_run(loaded, text)
    if trace is None:
        return
    source_tokens(trace)
    model_encoding(loaded, trace)
    trace_downloads(trace, PAGE)
    if isinstance(loaded, LoadedEncoder | LoadedGPT):  # learned positions against sinusoids (no cross-attention)
        learned_section(loaded)
        return
    st.header(_("What breaks without it"))
    st.caption(
        _(
            "Without positions the encoder sees a bag of words, so the attention can no longer follow the order: "
            "compare the prediction and the cross-attention with and without."
        )
    )
    ablation_section(loaded, text, trace)


def render_slide(view: PositionalView) -> None:
    """The sinusoidal table beside the encoding the view's model adds to its input."""
    loaded = get_model(view.common.model)
    trace = cached_run(loaded, slide_input(view, loaded))
    table_col, model_col = (st.container(), st.container()) if presenting() else st.columns(2)
    share = 1.0 if presenting() else 0.5
    with table_col, chart_share(share):
        pe_table_chart(view.d_model or USUAL_WIDTH, view.length)
    if trace is not None:
        with model_col, chart_share(share):
            model_encoding(loaded, trace)
