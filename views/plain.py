"""Views of the pages with no controls of their own: Home, and Train (a slide shows the trained model's
cross-attention beside random weights', on the slide's model and input)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import PageView
from .common import Common


@dataclass(frozen=True)
class HomeView(PageView):
    PAGE = "home"
    SLIDE = False

    common: Common = field(default_factory=Common)


@dataclass(frozen=True)
class TrainView(PageView):
    PAGE = "train"

    common: Common = field(default_factory=Common)
