"""Which widgets each folded popover holds, so a follower's page can scroll to the fold of a control it cannot see.

A closed popover's widgets are not in the browser's page at all, so the scroll after a teacher's change (ui.classroom.
scroll) would find nothing. While a fold is drawn, the widget keys registered in it are noted (Streamlit's own
per-run record of user keys, ui.streamlit_private.registered_user_keys) under the fold's key; the page's layout is
the same from run to run, so the last run's note tells the next apply where each control sits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from ..streamlit_private import registered_user_keys

FOLDS = "_presenter_folds"  # session key: {widget key: the key of the fold that holds it}
PREFIX = "fold_"


def fold_key(label: str) -> str:
    """A key for the fold named `label`, unused so far in this run (a page may fold two groups under one name)."""
    # ASCII only: Streamlit writes other characters of a key into the CSS class as "-" (a Chinese label's would clash)
    base = PREFIX + hashlib.sha1(label.encode()).hexdigest()[:8]
    taken, key, n = registered_user_keys(), base, 1
    while key in taken:
        n += 1
        key = f"{base}_{n}"
    return key


@contextmanager
def noting(key: str, holds: tuple[str, ...] = ()) -> Iterator[None]:
    """Around a fold's body: note each widget key drawn inside it as held by the fold `key`, and the keys `holds`
    names (a lazy fold's, whose widgets a closed fold does not draw)."""
    before = registered_user_keys()
    yield
    held = (registered_user_keys() - before - {key}) | set(holds)
    if held:
        folds = st.session_state.setdefault(FOLDS, {})
        folds.update(dict.fromkeys(held, key))


def holder(key: str) -> str | None:
    """The key of the fold that held widget `key` when it was last drawn folded, else None."""
    folds = st.session_state.get(FOLDS)
    return folds.get(key) if isinstance(folds, dict) else None
