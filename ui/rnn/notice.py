"""What a Transformer-only page shows when the sidebar's model is an RNN: one sentence and a link to the page that
does show RNN models."""

from __future__ import annotations

import streamlit as st

from model import AnyLoaded

from ..i18n import _
from ..navigation import RNN_VS_TRANSFORMER
from ..tokens import md_escape

TRANSFORMER_ARCHS = ("transformer", "bert", "gpt")  # our encoder–decoder, the encoder-only MiniLM, the decoder-only GPT


def is_transformer(loaded: AnyLoaded) -> bool:
    """Any of our Transformers: the toy encoder–decoder, MiniLM (encoder only) or a GPT (decoder only)."""
    return loaded.config.arch in TRANSFORMER_ARCHS


def transformer_only(loaded: AnyLoaded) -> bool:
    """True for a Transformer (MiniLM and GPTs included). For any other family, say in one sentence that this part
    shows a Transformer's inner workings, link to the RNN page, and return False (the caller then draws nothing)."""
    if is_transformer(loaded):
        return True
    with st.container(border=True, key="rnn_notice"):
        st.markdown(
            _(
                "**{name}** is a recurrent (RNN) model, and this part of the lab shows the layers and heads of a "
                "Transformer: its attention, its decoder step by step and its comparison with the Transformer are on "
                "the RNN vs Transformer page."
            ).format(name=md_escape(loaded.name))
        )
        st.page_link(RNN_VS_TRANSFORMER.script, label=_(RNN_VS_TRANSFORMER.title), icon=RNN_VS_TRANSFORMER.icon)
    return False
