"""How wide a chart is drawn: the share of the page's width the part of the page it stands in has.

Plotly never wraps a title, so ui.charts fits every chart's words to the width it gets (viz.fit). Pages and layout
helpers say what share of the width a part of the page has (`with chart_share(0.5):` around a column's charts);
shares nest (a lesson slide's live view, a column inside it). No Streamlit here: only the bookkeeping.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

PAGE_WIDTH = {True: 1216, False: 820}  # px of the page's content at 1280 px: presenter view (no sidebar), normal view
_SHARE: ContextVar[float] = ContextVar("chart_share", default=1.0)


@contextmanager
def chart_share(fraction: float) -> Iterator[None]:
    """Charts drawn inside have `fraction` of the width they would have outside (a column of the page)."""
    token = _SHARE.set(_SHARE.get() * fraction)
    try:
        yield
    finally:
        _SHARE.reset(token)


def page_share() -> float:
    """The share of the page's width the current part of the page has."""
    return _SHARE.get()
