"""The Inside-a-layer page as a function of its view: `render(view)` draws the page; `render(view, slide=True)` draws
the residual stream of the view's stack and what each sublayer adds to it, with no controls."""

from __future__ import annotations

import streamlit as st

from model import transformer_of
from views import InsideLayerView

from ..attention.page import run_line, slide_input
from ..i18n import _
from ..inputs import source_text
from ..models import get_model
from ..presenter import controls, page_header
from ..rnn.notice import transformer_only
from ..trace_cache import cached_run
from ..trace_download import trace_downloads
from .view import choose_stack, ffn_section, layernorm_section, stack_analysis, stream_section, trace_stacks

PAGE = InsideLayerView.PAGE


def render(view: InsideLayerView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, the residual stream of its stack."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Inside a layer"),
        _(
            "Every position carries one vector, the **residual stream**, through the layers. Each sublayer reads it "
            "and *adds* an update; LayerNorm keeps its scale in check; the feed-forward block lights up a few of its "
            "hidden units for each token."
        ),
        markdown=True,
    )
    loaded = get_model(view.common.model)
    if not transformer_only(loaded):
        return
    with controls(bar, _("Input")):
        text = source_text(loaded=loaded)
    trace = cached_run(loaded, text)
    if trace is None:
        return
    with controls(bar, _("Stack")):
        analysis, tokens = choose_stack(trace, transformer_of(loaded).config.norm)
    st.subheader(_("The residual stream"))
    stream_section(analysis, tokens)
    st.subheader("LayerNorm")
    layernorm_section(analysis, tokens)
    st.subheader(_("Feed-forward"))
    ffn_section(analysis, tokens, getattr(loaded.config, "activation", "relu"))
    trace_downloads(trace, PAGE)


def render_slide(view: InsideLayerView) -> None:
    """The residual stream of one stack and what each sublayer adds to it."""
    loaded = get_model(view.common.model)
    text = slide_input(view, loaded)
    trace = cached_run(loaded, text)
    if trace is None:
        return
    run_line(loaded, text, trace)
    stacks = trace_stacks(trace)
    stack = view.stack if view.stack in stacks else stacks[0]  # MiniLM: its encoder; a GPT: its decoder
    analysis, tokens = stack_analysis(trace, stack, transformer_of(loaded).config.norm)
    stream_section(analysis, tokens)
