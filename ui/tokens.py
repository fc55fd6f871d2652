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
    """Tokens as markdown badges: known ones blue, <unk> and the special tokens grey/red."""
    chips = []
    for token in tokens:
        colour = "red" if token == UNK else "gray" if token.startswith("<") else "blue"
        chips.append(f":{colour}-badge[{md_escape(token)}]")
    return " ".join(chips)


def show_tokens(label: str, tokens: list[str], unknown: list[str], unknown_note: str) -> None:
    """One line of token badges, then a warning that names the words the vocabulary did not know."""
    st.markdown(f"**{label}** {token_chips(tokens)}")
    if unknown:
        names = ", ".join(f"“{md_escape(word)}”" for word in unknown)
        st.warning(f"{unknown_note} {names}", icon="❓")
