"""Figures built once per process for the same arguments, and what is derived from them (fitted, restyled) once each.

A class of 100 following a teacher asks the server for the same figures 100 times per change: every follower's page
draws the teacher's view, in one of two languages. A builder wrapped in `remembered` returns the figure it built for
equal arguments (arrays and tensors by their values; titles and labels are arguments, so the language is part of the
key) from a bounded process-wide cache. Such a figure is shared between sessions and threads, so it is marked frozen
and must not be changed: derive new figures from it (`derived` caches those on the figure itself).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import numpy as np
import plotly.graph_objects as go
from plotly.basedatatypes import BaseFigure

from model.memo import MISSING, BoundedCache, kept

from .figure_json import fig_dict

F = TypeVar("F", bound=Callable[..., go.Figure])
T = TypeVar("T")
# Figures kept per process, by count and by their estimated memory (figure_bytes): a class's current view needs a
# dozen (a step's charts in two languages); more only fill the server's memory (docs/capacity.md, "Memory").
MAX_FIGURES, MAX_FIGURE_BYTES = 32, 16 * 2**20
# A shared figure is kept with what is derived from it: its fitted copy (which shares its numbers) and that copy's
# JSON, about half as much again as the figure (measured with tracemalloc over 40 Attention edits: 14.2 MB). Since
# 2026-11-29 a chart drawn in place keeps only the JSON (ui.charts: the fitted dict is not kept), so this overstates it.
DERIVED_SHARE = 1.5
FROZEN = "_lab_frozen"  # attribute of a shared figure: {what was derived from it: the derived figure}


def value_bytes(value: object) -> int:
    """Roughly the memory a figure's value holds in CPython: arrays by their bytes, lists and dicts with their items."""
    if isinstance(value, np.ndarray):
        return 112 + value.nbytes
    if isinstance(value, (str, bytes)):
        return 49 + len(value)
    if isinstance(value, dict):
        return 232 + sum(value_bytes(key) + value_bytes(item) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        if value and isinstance(value[0], (int, float)) and isinstance(value[-1], (int, float)):
            return 56 + 32 * len(value)  # a row of numbers: a pointer and a float object each (the common case, fast)
        if value and isinstance(value[0], str) and isinstance(value[-1], str):  # a row of hover texts (as common)
            return 56 + 57 * len(value) + sum(map(len, value))  # a pointer and a str object (49 + its length) each
        return 56 + 8 * len(value) + sum(value_bytes(item) for item in value)
    return 24


def figure_bytes(fig: go.Figure) -> int:
    """The memory a shared figure is estimated to hold, with what will be derived from it (DERIVED_SHARE)."""
    own = fig_dict(fig)  # plotly's own dicts of the figure's traces and layout (no copies made)
    return int(DERIVED_SHARE * (value_bytes(own["data"]) + value_bytes(own["layout"])))


_figures = BoundedCache(MAX_FIGURES, MAX_FIGURE_BYTES, figure_bytes)


def remembered(build: F) -> F:
    """`build`, returning the frozen figure it built before for equal arguments (see the module docstring)."""
    return kept(_figures, keep=freeze)(build)


def freeze(fig: go.Figure) -> go.Figure:
    """Mark `fig` shared: nobody changes it, and what is derived from it is kept with it."""
    if not is_frozen(fig):
        object.__setattr__(fig, FROZEN, {})
    return fig


def is_frozen(fig: go.Figure) -> bool:
    return isinstance(getattr(fig, FROZEN, None), dict)


def derived(fig: go.Figure, how: Hashable, derive: Callable[[go.Figure], T]) -> T:
    """derive(fig); for a frozen figure, computed once per `how` and kept with it (a figure derived is frozen too,
    anything else must be left unchanged by whoever uses it)."""
    if not is_frozen(fig):
        return derive(fig)
    derivations: dict = getattr(fig, FROZEN)
    found = derivations.get(how, MISSING)
    if found is MISSING:
        found = derive(fig)
        derivations[how] = freeze(found) if isinstance(found, go.Figure) else found
    return found


def forget_figures() -> None:
    """Empty the process-wide cache (tests)."""
    _figures.clear()


class _DictFigure(BaseFigure):
    """A figure's dict standing in for the figure where only to_dict() is read (not built by BaseFigure's
    constructor)."""

    _lab_dict: dict

    def to_dict(self) -> dict:
        return self._lab_dict


def dict_figure(spec: dict) -> BaseFigure:
    """A figure whose to_dict() is `spec` itself, not a copy, for a reader that only serializes it: st.plotly_chart
    (Streamlit 1.67) takes a plotly figure's to_dict(), and plotly's deep-copies every trace (~1.4 ms for a step's
    heatmap, per chart and per follower), where the dict of a shared figure is made once (`derived`). `spec` must not
    be changed."""
    drawn = _DictFigure.__new__(_DictFigure)
    object.__setattr__(drawn, "_lab_dict", spec)
    return drawn
