"""Widgets whose options are shown translated, with the choice kept across a language switch and in links.

Streamlit keeps a keyed choice, and writes a URL-bound one into the link, as its SHOWN label: the Attention
page's `?kind=` holds "Cross-attention" in English and "交叉注意力" in Chinese, and every link also carries
its `lang=`, so it reopens in the language it was made in. These helpers also accept the other language's
label in a link (a ?kind=Cross-attention link opened with lang=zh shows cross-attention, not the default).

Labels are translated while the page runs and looked up by the format_func, never translated inside it:
Streamlit's AppTest calls a widget's format_func after the run, outside the session, where `_` reads English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import streamlit as st

from .i18n import LANGUAGES, _, translations
from .language import keep_on_language_switch

T = TypeVar("T")


def _labels_in(lang: str, msgids: Sequence[str]) -> list[str]:
    return [translations(lang).gettext(m) for m in msgids]


def _find(label: object, msgids: Sequence[str]) -> int | None:
    """Index of the msgid whose label in some language is `label`."""
    for lang in LANGUAGES:
        labels = _labels_in(lang, msgids)
        if label in labels:
            return labels.index(label)
    return None


def translated_options(key: str, labels: Mapping[str, str]) -> Callable[[str], str]:
    """format_func for the keyed widget `key` whose options are the ids of `labels` (id → English msgid).

    The key is kept on a language switch (ui.language), and on the session's first run a link's label in
    either language picks its option."""
    keep_on_language_switch(key)
    if key not in st.session_state and key in st.query_params:
        found = _find(st.query_params.get(key), list(labels.values()))
        if found is not None:
            st.session_state[key] = list(labels)[found]
    return shown_as({option: _(msgid) for option, msgid in labels.items()})


def shown_as(labels: Mapping[T, str]) -> Callable[[T], str]:
    """A format_func reading labels translated in this run (see the module's note on AppTest)."""
    return dict(labels).__getitem__
