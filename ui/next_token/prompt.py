"""The prompt box (every view's `input`, ?text= in the link unless it is the model's example): editing it starts the
writing afresh."""

from __future__ import annotations

import streamlit as st

from model.gpt import LoadedGPT
from views.common import MAX_INPUT_CHARS

from ..i18n import _
from ..inputs import TEXT_KEY, example_by_default
from ..tokens import reads_tokens
from .writing import clear_written


def prompt_box(loaded: LoadedGPT) -> str:
    """The prompt; a switch to a model with another example swaps that example in unless the user typed their own."""
    example_by_default(loaded.task.example)
    return st.text_input(
        _("Prompt"), key=TEXT_KEY, max_chars=MAX_INPUT_CHARS, on_change=clear_written,
        help=_("Any text: the model's tokenizer splits it into tokens (whole words, pieces of words, bytes), as "
               "GPT-2's does; a prompt longer than the context is cut from the left.") if reads_tokens(loaded) else
        _("Any text, in English or Chinese: the model reads it one character at a time. Characters its "
          "vocabulary lacks read as □; a prompt longer than the context is cut from the left."),
    )  # fmt: skip
