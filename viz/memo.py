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

import plotly.graph_objects as go
from plotly.basedatatypes import BaseFigure

from model.memo import MISSING, BoundedCache, kept

F = TypeVar("F", bound=Callable[..., go.Figure])
T = TypeVar("T")
MAX_FIGURES = 256  # figures kept per process (a step-by-step heatmap ~10 kB, an overview of a model's heads ~0.3 MB)
FROZEN = "_lab_frozen"  # attribute of a shared figure: {what was derived from it: the derived figure}


_figures = BoundedCache(MAX_FIGURES)


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
