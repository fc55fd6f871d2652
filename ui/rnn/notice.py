"""What a Transformer-only page shows when the sidebar's model is an RNN: one sentence and a link to the page that
does show RNN models."""

from __future__ import annotations

import streamlit as st

from model import LoadedModel

from ..i18n import _
from ..navigation import RNN_VS_TRANSFORMER
from ..tokens import md_escape


def is_transformer(loaded: LoadedModel) -> bool:
    return loaded.config.arch == "transformer"


def transformer_only(loaded: LoadedModel) -> bool:
    """True for a Transformer. For any other family, say in one sentence that this part shows a Transformer's inner
    workings, link to the RNN page, and return False (the caller then draws nothing of the model)."""
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
