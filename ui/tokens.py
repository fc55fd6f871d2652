"""Show tokens as the model sees them, with unknown words marked and named; user text is never HTML."""

from __future__ import annotations

import re

import streamlit as st

from model.gpt import UNKNOWN_MARK, CharVocab, LoadedGPT
from model.naming import Side, embed_name

from .i18n import _, pgettext

UNK = "<unk>"
UNKNOWN = (UNK, "[UNK]", UNKNOWN_MARK)  # our vocabularies' unknown token, WordPiece's (MiniLM), a GPT's □
SHOWN_WHITESPACE = {" ": "␣", "\n": "⏎", "\t": "⇥"}  # a character-level GPT's blanks, made visible on screen


def visible(tokens: list[str]) -> list[str]:
    """Tokens as a reader can see them: a character-level GPT's space, newline and tab as ␣ ⏎ ⇥ (in chips, figure
    labels and pickers; the trace keeps the characters)."""
    return [SHOWN_WHITESPACE.get(token, token) for token in tokens]


SPECIAL = ("[CLS]", "[SEP]", "[PAD]", "[MASK]")  # WordPiece's special tokens, grey like our <bos>, <eos>
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&\"'=])")


def md_escape(text: str) -> str:
    """Markdown with every special character backslash-escaped, so typed HTML or markup shows as plain text."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def token_chips(tokens: list[str]) -> str:
    """Tokens as markdown code spans, <unk> in bold red and the special tokens grey. (Code spans, not
    st.badge-style chips: a line of 30 badges cost ~100 ms of browser time per rerun.)"""
    chips = []
    for token in visible(tokens):
        chip = f"`{token}`" if "`" not in token else md_escape(token)  # vocabulary words, never raw user text
        special = token.startswith("<") or token in SPECIAL
        chips.append(f":red[**{chip}**]" if token in UNKNOWN else f":gray[{chip}]" if special else chip)
    return " ".join(chips)


MAX_SHOWN_CHARS = 32  # a word longer than this is named by its start: a 2000-character word would bury the message


def shortened(word: str) -> str:
    return word if len(word) <= MAX_SHOWN_CHARS else word[: MAX_SHOWN_CHARS - 1] + "…"


def quoted_list(words: list[str]) -> str:
    """Words as typed (escaped, long ones cut), each in quotes, joined the way the reader's language lists things."""
    return pgettext("list separator", ", ").join(f"“{md_escape(shortened(word))}”" for word in words)


def show_tokens(label: str, tokens: list[str], unknown: list[str], unknown_note: str) -> None:
    """One line of token chips after a translated `label`, then a warning naming the words the vocabulary did not
    know: `unknown_note` is a translated template with {words}."""
    st.markdown(f"**{label}** {token_chips(tokens)}")
    if unknown:
        st.warning(unknown_note.format(words=quoted_list(unknown)), icon="❓")


def has_source(trace) -> bool:
    """Whether the model read a source: every family but the decoder-only GPT, which reads its prompt as `tgt`."""
    return embed_name(Side.SRC) in trace


def source_tokens(trace, loaded: object = None) -> None:
    """The source tokens of a trace (a GPT's prompt characters, or its tokens for a folder's BPE; `loaded`: the model,
    by default the sidebar's), and the words of the input the vocabulary did not know."""
    if not has_source(trace):
        from .models import selected_model  # below ui.models in the imports: asked only for a GPT's trace

        bpe = reads_tokens(loaded if loaded is not None else selected_model())
        show_tokens(
            _("Tokens:") if bpe else _("Characters:"), trace.tokens("tgt"), trace.unknown,
            _("Not in this model's vocabulary (read as □): {words}"),
        )  # fmt: skip
        return
    tokens = trace.tokens("src")
    if "[CLS]" in tokens:  # WordPiece (MiniLM): words split as the model split them, play ##ing
        show_tokens(
            _("Word pieces:"), tokens, trace.unknown,
            _("Not in this model's vocabulary (read as [UNK]): {words}"),
        )  # fmt: skip
        st.caption(_("`##` marks a piece that continues the word before it; [CLS] opens the input and [SEP] ends it."))
        return
    show_tokens(
        _("Source tokens:"),
        tokens,
        trace.unknown,
        _("Not in this model's vocabulary (read as <unk>): {words}"),
    )


def reads_tokens(loaded: object) -> bool:
    """A GPT whose tokens are pieces of text (a folder's byte-level BPE), not one character each (ours)."""
    return isinstance(loaded, LoadedGPT) and not isinstance(loaded.vocab, CharVocab)
