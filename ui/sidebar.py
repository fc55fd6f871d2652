"""The sidebar every page shares: the model picker (kept in the URL as ?model=...)."""

from __future__ import annotations

import streamlit as st

from model import PRETRAINED, CheckpointError

from .charts import chart_format_picker
from .choices import shown_as
from .i18n import _, explain, ngettext
from .models import (
    CELL_NAMES,
    DEFAULT_MODEL,
    NORM_NAMES,
    POSITIONAL_NAMES,
    SCORE_NAMES,
    model_names,
    selected_model,
    user_models,
)
from .room_models import room_model_names
from .tokens import md_escape


def _label(name: str) -> str:
    if name in PRETRAINED:
        return name
    if name not in user_models() and name in room_model_names():
        return _("{name} (shared by the teacher)").format(name=name)
    return _("{name} (yours)").format(name=name)


def _say_if_the_link_names_an_unknown_model(names: list[str], labels: dict[str, str]) -> None:
    """A link's ?model= that this session does not have (mistyped, or a model trained in another session) opens
    the default model: say so on the page, once, rather than show another model without a word."""
    asked = st.query_params.get("model")
    if "model" in st.session_state or not asked or asked in names or asked in labels.values():
        return
    shown = asked if len(asked) <= 40 else asked[:39] + "…"
    st.warning(
        _(
            "This link asks for the model “{name}”, which is not here (a model trained in the browser stays in "
            "the session that trained it); showing **{default}** instead."
        ).format(name=md_escape(shown), default=DEFAULT_MODEL)
    )


def render_sidebar() -> None:
    """Model picker plus a one-line description of the chosen model."""
    names = model_names()
    labels = {name: _label(name) for name in names}
    _say_if_the_link_names_an_unknown_model(names, labels)
    with st.sidebar:
        st.selectbox(
            _("Model"),
            names,
            index=names.index(DEFAULT_MODEL),
            format_func=shown_as(labels),
            key="model",
            bind="query-params",
            help=_("Shipped models are trained by this repository's own command; models you train appear here too."),
        )
        try:
            loaded = selected_model()
        except CheckpointError as exc:
            st.error(_("This model could not be loaded: {reason}").format(reason=explain(exc)))
            st.stop()
        st.caption(f"**{loaded.task.name}** — {_(loaded.task.description)}  \n" + describe(loaded.config))
    chart_format_picker()


def describe(c) -> str:
    """One line on a model's shape, either family."""
    if c.arch == "rnn":
        template = _("RNN · bidirectional {cell} · attention: {score} · hidden {d}") if c.bidirectional else _(
            "RNN · {cell} · attention: {score} · hidden {d}")  # fmt: skip
        return template.format(cell=_(CELL_NAMES[c.cell]), score=_(SCORE_NAMES[c.score]), d=c.d_hidden)
    shape = ngettext(
        "{enc}+{dec} layers · {heads} head · d_model {d} · positions: {positional} · {norm}",
        "{enc}+{dec} layers · {heads} heads · d_model {d} · positions: {positional} · {norm}",
        c.n_heads,
    )
    return shape.format(
        enc=c.n_encoder_layers, dec=c.n_decoder_layers, heads=c.n_heads, d=c.d_model,
        positional=_(POSITIONAL_NAMES[c.positional]), norm=_(NORM_NAMES[c.norm]),
    )  # fmt: skip
