"""Show tokens as the model sees them, with unknown words marked and named; user text is never HTML."""

from __future__ import annotations

import re

import streamlit as st

UNK = "<unk>"
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&\"'=])")


def md_escape(text: str) -> str:
    """Markdown with every special character backslash-escaped, so typed HTML or markup shows as plain text."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def token_chips(tokens: list[str]) -> str:
    """Tokens as markdown code spans, <unk> in bold red and the special tokens grey. (Code spans, not
    st.badge-style chips: a line of 30 badges cost ~100 ms of browser time per rerun.)"""
    chips = []
    for token in tokens:
        chip = f"`{token}`" if "`" not in token else md_escape(token)  # vocabulary words, never raw user text
        chips.append(f":red[**{chip}**]" if token == UNK else f":gray[{chip}]" if token.startswith("<") else chip)
    return " ".join(chips)


def show_tokens(label: str, tokens: list[str], unknown: list[str], unknown_note: str) -> None:
    """One line of token badges, then a warning that names the words the vocabulary did not know."""
    st.markdown(f"**{label}** {token_chips(tokens)}")
    if unknown:
        names = ", ".join(f"“{md_escape(word)}”" for word in unknown)
        st.warning(f"{unknown_note} {names}", icon="❓")
