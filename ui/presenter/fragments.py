"""A page section that reruns alone when its own widgets change (st.fragment), except for a following student.

A following student's whole page already runs in one fragment (ui.classroom.page_fragment), rerun by the server for
each of the teacher's changes. A fragment nested in it costs that student's run its setup (Streamlit deep-copies the
cursors and the container stack for every fragment call: ~5 % of a follower's /attention run under py-spy,
docs/capacity.md, "A class") and gives nothing: a follower's own touch of a control reruns the page fragment anyway.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from .layout import folding

F = TypeVar("F", bound=Callable[..., Any])


def section_fragment(func: F) -> F:
    """`@section_fragment` instead of `@st.fragment`: the same fragment, called as a plain function while this
    session follows a teacher (folding())."""
    as_fragment = st.fragment(func)

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        return (func if folding() else as_fragment)(*args, **kwargs)

    return call  # type: ignore[return-value]
