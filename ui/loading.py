"""'Loading model…' in the reader's language, shown only while a model is really being loaded.

st.cache_resource(show_spinner="…") fixes its text when the module is imported, before any session has a
language; so the cached loaders run without a spinner and this wraps the first call for each argument.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from .i18n import _

T = TypeVar("T")
_LOADED: set[tuple[str, str]] = set()  # (loader, argument) already in st.cache_resource in this process


def load_once(loader: Callable[[str], T], argument: str) -> T:
    """loader(argument), with a spinner the first time in this process (later calls are cache hits)."""
    key = (loader.__qualname__, argument)
    if key in _LOADED:
        return loader(argument)
    with st.spinner(_("Loading model…")):
        value = loader(argument)
    _LOADED.add(key)
    return value
