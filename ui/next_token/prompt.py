"""The prompt box (every view's `input`, ?text= in the link unless it is the model's example): editing it starts the
writing afresh."""

from __future__ import annotations

import streamlit as st

from model.gpt import LoadedGPT
from views.common import MAX_INPUT_CHARS

from ..i18n import _
from ..inputs import EXAMPLE_KEY, TEXT_KEY
from ..state.session import implicit
from .writing import clear_written


def prompt_box(loaded: LoadedGPT) -> str:
    """The prompt; a switch to a model with another example swaps that example in unless the user typed their own
    (as ui.inputs.source_text does for the other pages' input box)."""
    example = loaded.task.example
    previous, text = st.session_state.get(EXAMPLE_KEY), st.session_state.get(TEXT_KEY)
    if text is None or (previous not in (None, example) and text == previous):
        st.session_state[TEXT_KEY] = example
    st.session_state[EXAMPLE_KEY] = example
    implicit(TEXT_KEY, example)  # the model's own example: the view (and the link) holds none
    return st.text_input(
        _("Prompt"), key=TEXT_KEY, max_chars=MAX_INPUT_CHARS, on_change=clear_written,
        help=_("Any text, in English or Chinese: the model reads it one character at a time. Characters its "
               "vocabulary lacks read as □; a prompt longer than the context is cut from the left."),
    )  # fmt: skip
