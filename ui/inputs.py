"""The source text every page shares, kept in the URL as ?text=... so a link reopens the view."""

from __future__ import annotations

import streamlit as st

from model import LoadedModel

from .models import selected_model

TEXT_KEY = "text"
_EXAMPLE_KEY = "_text_example"  # the example the text box was last defaulted to


def source_text(label: str = "Input", loaded: LoadedModel | None = None) -> str:
    """The `Input` box. Switching to a model of another task swaps in that task's example,
    unless the user has typed something of their own."""
    loaded = loaded or selected_model()
    example = loaded.task.example
    previous = st.session_state.get(_EXAMPLE_KEY)
    if previous is not None and previous != example and st.session_state.get(TEXT_KEY) in (None, previous):
        st.session_state[TEXT_KEY] = example
    st.session_state[_EXAMPLE_KEY] = example
    return st.text_input(
        label,
        value=example,
        key=TEXT_KEY,
        bind="query-params",
        max_chars=2000,
        help="Tokens separated by spaces. Words the model does not know become <unk>.",
    )


def fit_to_limit(loaded: LoadedModel, text: str | None, what: str = "input") -> str:
    """The text cut to the model's limit of loaded.max_words tokens, with a visible notice when it was longer."""
    words = (text or "").split()
    if len(words) <= loaded.max_words:
        return text or ""
    st.warning(
        f"The {what} has {len(words)} tokens; this model reads at most {loaded.max_words}, "
        f"so only the first {loaded.max_words} are used."
    )
    return " ".join(words[: loaded.max_words])
