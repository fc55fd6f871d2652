"""Every page's view class by the page's URL path: the one list rooms, lessons and links look pages up in."""

from __future__ import annotations

from .attention import AttentionView
from .base import PageView
from .layers import InsideLayerView
from .lesson import LessonView
from .next_token import NextTokenView
from .plain import HomeView, TrainView
from .positional import PositionalView
from .rnn import RnnView
from .walkthrough import StepByStepView

VIEWS: dict[str, type[PageView]] = {
    cls.PAGE: cls
    for cls in (
        HomeView, AttentionView, StepByStepView, PositionalView, InsideLayerView, TrainView, RnnView, NextTokenView,
        LessonView,
    )
}  # fmt: skip
SLIDE_PAGES = tuple(page for page, cls in VIEWS.items() if cls.SLIDE)  # the pages a lesson slide can show


def view_class(page: str) -> type[PageView] | None:
    return VIEWS.get(page)
