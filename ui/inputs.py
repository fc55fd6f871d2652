"""The source text every page shares, kept in the URL as ?text=... so a link reopens the view."""

from __future__ import annotations

import streamlit as st

from model import LoadedModel

from .i18n import N_, _
from .models import selected_model

TEXT_KEY = "text"
_EXAMPLE_KEY = "_text_example"  # the example the text box was last defaulted to
TOO_LONG = {  # what → the notice when it is cut to the model's limit
    "input": N_("The input has {n} tokens; this model reads at most {limit}, so only the first {limit} are used."),
    "target": N_("The target has {n} tokens; this model reads at most {limit}, so only the first {limit} are used."),
}


def source_text(label: str | None = None, loaded: LoadedModel | None = None) -> str:
    """The `Input` box (label: translated "Input" unless given). Switching to a model of another task swaps in
    that task's example, unless the user has typed something of their own."""
    loaded = loaded or selected_model()
    example = loaded.task.example
    previous = st.session_state.get(_EXAMPLE_KEY)
    if previous is not None and previous != example and st.session_state.get(TEXT_KEY) in (None, previous):
        st.session_state[TEXT_KEY] = example
    st.session_state[_EXAMPLE_KEY] = example
    return st.text_input(
        label or _("Input"),
        value=example,
        key=TEXT_KEY,
        bind="query-params",
        max_chars=2000,
        help=_("Tokens separated by spaces. Words the model does not know become <unk>."),
    )


def fit_to_limit(loaded: LoadedModel, text: str | None, what: str = "input") -> str:
    """The text (`what`: input or target) cut to the model's limit of loaded.max_words tokens, with a visible
    notice when it was longer."""
    words = (text or "").split()
    if len(words) <= loaded.max_words:
        return text or ""
    st.warning(_(TOO_LONG[what]).format(n=len(words), limit=loaded.max_words))
    return " ".join(words[: loaded.max_words])
