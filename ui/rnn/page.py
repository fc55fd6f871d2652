"""The RNN-vs-Transformer page as a function of its view: `render(view)` draws the part the view names;
`render(view, slide=True)` draws the bottleneck's curves for the view's task, the slide's words saying what they
show, with no controls."""

from __future__ import annotations

import streamlit as st

from model import LoadedEncoder
from model.gpt import LoadedGPT
from views import RnnView

from ..i18n import _
from ..inputs import source_text
from ..models import get_model
from ..presenter import page_header
from ..tokens import md_escape
from .align import alignment_section
from .bottleneck import bottleneck_section, bottleneck_view
from .claims import claims_section
from .decoder import decoder_section
from .gradients import gradients_section
from .pairs import describe, pair_for
from .parts import ALIGN, BOTTLENECK, CLAIMS, DECODER, part_picker

PAGE = RnnView.PAGE


def render(view: RnnView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, the bottleneck of its task."""
    if slide:
        bottleneck_view(view.bottleneck_task, view.bottleneck_n, explain=False)
        return
    page_header(
        _("RNN + attention vs the Transformer"),
        _(
            "Before the Transformer, a sequence-to-sequence model was two recurrent networks (RNN, GRU or LSTM): the "
            "**encoder** read the input one token at a time, and the **decoder** wrote the output from the encoder's "
            "last state, one fixed vector for the whole sentence. **Attention** (Bahdanau, 2015) let the decoder look "
            "back at every encoder state at every step; the Transformer (2017) kept the attention and dropped the "
            "recurrence."
        ),
        markdown=True,
        keep=True,
    )
    part = part_picker()
    if part in (ALIGN, DECODER):
        loaded = get_model(view.common.model)
        if isinstance(loaded, LoadedEncoder):
            st.info(_("**{name}** is an encoder-only model: it has no decoder to set beside an RNN's. Pick translate "
                      "or reverse (or one of their -rnn models) in the sidebar to compare the two families.").format(
                name=md_escape(loaded.name)))  # fmt: skip
            return
        if isinstance(loaded, LoadedGPT):
            st.info(_("**{name}** is a decoder-only model: it continues a text, with no source for an RNN's encoder "
                      "to read. Pick translate or reverse (or one of their -rnn models) in the sidebar to compare the "
                      "two families.").format(name=md_escape(loaded.name)))  # fmt: skip
            return
        pair = pair_for(loaded)
        describe(pair)
        text = source_text(loaded=loaded)
        if part == ALIGN:
            alignment_section(pair, text)
        else:
            decoder_section(pair.rnn, text)
    elif part == BOTTLENECK:
        bottleneck_section()
    elif part == CLAIMS:
        claims_section()
    else:
        gradients_section()
