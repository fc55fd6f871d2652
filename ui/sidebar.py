"""The sidebar every page shares: the model picker (kept in the URL as ?model=...)."""

from __future__ import annotations

import streamlit as st

from model import PRETRAINED, CheckpointError

from .models import DEFAULT_MODEL, model_names, selected_model


def _label(name: str) -> str:
    return name if name in PRETRAINED else f"{name} (yours)"


def render_sidebar() -> None:
    """Model picker plus a one-line description of the chosen model."""
    names = model_names()
    with st.sidebar:
        st.selectbox(
            "Model",
            names,
            index=names.index(DEFAULT_MODEL),
            format_func=_label,
            key="model",
            bind="query-params",
            help="Shipped models are trained by this repository's own command; models you train appear here too.",
        )
        try:
            loaded = selected_model()
        except CheckpointError as exc:
            st.error(f"This model could not be loaded: {exc}")
            st.stop()
        c = loaded.config
        st.caption(
            f"**{loaded.task.name}** — {loaded.task.description}  \n"
            f"{c.n_encoder_layers}+{c.n_decoder_layers} layers · {c.n_heads} heads · d_model {c.d_model} · "
            f"{c.positional} positions · {c.norm}-LN"
        )
