"""The sidebar every page shares: the model picker (kept in the URL as ?model=...)."""

from __future__ import annotations

import streamlit as st

from model import PRETRAINED, CheckpointError

from .classroom.room_models import room_model_names
from .i18n import _, explain
from .models import DEFAULT_MODEL, model_names, selected_model, user_models


def _label(name: str) -> str:
    if name in PRETRAINED:
        return name
    if name not in user_models() and name in room_model_names():
        return _("{name} (shared by the teacher)").format(name=name)
    return _("{name} (yours)").format(name=name)


def render_sidebar() -> None:
    """Model picker plus a one-line description of the chosen model."""
    names = model_names()
    with st.sidebar:
        st.selectbox(
            _("Model"),
            names,
            index=names.index(DEFAULT_MODEL),
            format_func=_label,
            key="model",
            bind="query-params",
            help=_("Shipped models are trained by this repository's own command; models you train appear here too."),
        )
        try:
            loaded = selected_model()
        except CheckpointError as exc:
            st.error(_("This model could not be loaded: {reason}").format(reason=explain(exc)))
            st.stop()
        c = loaded.config
        st.caption(
            f"**{loaded.task.name}** — {_(loaded.task.description)}  \n"
            + _("{enc}+{dec} layers · {heads} heads · d_model {d} · {positional} positions · {norm}-LN").format(
                enc=c.n_encoder_layers, dec=c.n_decoder_layers, heads=c.n_heads, d=c.d_model,
                positional=_(c.positional), norm=c.norm,
            )
        )  # fmt: skip
