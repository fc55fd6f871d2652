"""The source text every page shares (every view's `input`), in the link as ?text=… unless it is the model's example."""

from __future__ import annotations

import streamlit as st

from model import AnyLoaded, LoadedEncoder
from model.gpt import LoadedGPT
from views import Common, key_of
from views.common import MAX_INPUT_CHARS

from .i18n import N_, _
from .models import selected_model
from .state.session import implicit
from .tokens import reads_tokens

TEXT_KEY = key_of(Common, "input")
EXAMPLE_KEY = "_text_example"  # the example the text box was last defaulted to (the link leaves it out)
TOO_LONG = {  # what → the notice when it is cut to the model's limit
    "input": N_("The input has {n} tokens; this model reads at most {limit}, so only the first {limit} are used."),
    "target": N_("The target has {n} tokens; this model reads at most {limit}, so only the first {limit} are used."),
}


def source_text(label: str | None = None, loaded: AnyLoaded | None = None) -> str:
    """The `Input` box (label: translated "Input" unless given). Switching to a model of another task swaps in
    that task's example, unless the user has typed something of their own."""
    loaded = loaded or selected_model()
    example_by_default(loaded.task.example)
    return st.text_input(label or _("Input"), key=TEXT_KEY, max_chars=MAX_INPUT_CHARS, help=input_help(loaded))


def example_by_default(example: str) -> None:
    """Before the input box (any page's): the model's example unless the user typed their own; a switch to a model
    of another task swaps in that task's example. Recorded as the view's computed default (the link leaves it out)."""
    previous, text = st.session_state.get(EXAMPLE_KEY), st.session_state.get(TEXT_KEY)
    if text is None or (previous not in (None, example) and text == previous):
        st.session_state[TEXT_KEY] = example
    st.session_state[EXAMPLE_KEY] = example
    implicit(TEXT_KEY, example)  # the model's own example: the view (and the link) holds none


def input_help(loaded: AnyLoaded) -> str:
    """How this model reads the input box, in a line."""
    if isinstance(loaded, LoadedEncoder):
        return _("Any sentence: the model splits it into word pieces (play ##ing); characters its vocabulary lacks "
                 "become [UNK]; inputs past {limit} pieces are cut.").format(limit=loaded.max_len)  # fmt: skip
    if isinstance(loaded, LoadedGPT) and reads_tokens(loaded):
        return _(
            "Any text, which the model continues: its tokenizer splits it into tokens (whole words, pieces of words, "
            "bytes), as GPT-2's does; past {n} tokens it reads the last {n}."
        ).format(n=loaded.max_len)
    if isinstance(loaded, LoadedGPT):
        return _("Any text, which the model continues: it reads one character at a time; characters its vocabulary "
                 "lacks become □; past {n} characters it reads the last {n}.").format(n=loaded.max_len)  # fmt: skip
    return _("Tokens separated by spaces. Words the model does not know become <unk>.")


def cuts_itself(loaded: AnyLoaded) -> bool:
    """MiniLM and a GPT cut an over-long input themselves (a notice in trace.notices): no cut here."""
    return isinstance(loaded, LoadedEncoder | LoadedGPT)


def fit_to_limit(loaded: AnyLoaded, text: str | None, what: str = "input") -> str:
    """The text (`what`: input or target) cut to the model's limit of loaded.max_words tokens, with a visible
    notice when it was longer (MiniLM and a GPT cut their own: the text as it is)."""
    if cuts_itself(loaded):
        return text or ""
    words = (text or "").split()
    if len(words) <= loaded.max_words:
        return text or ""
    st.warning(_(TOO_LONG[what]).format(n=len(words), limit=loaded.max_words))
    return " ".join(words[: loaded.max_words])
