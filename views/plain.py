"""Views of the pages with few controls of their own: Home, and Train (its model family and GPT task, so a link, a
class and a lesson slide open the run ready to start; a slide shows the trained model's cross-attention beside
random weights', or on the GPT family the induction circuit)."""

from __future__ import annotations

from dataclasses import dataclass, field

from model.architectures import ARCHITECTURES
from model.gpt import GPT_TASKS

from .base import PageView
from .common import Common
from .controls import Choice, control


@dataclass(frozen=True)
class HomeView(PageView):
    PAGE = "home"
    SLIDE = False

    common: Common = field(default_factory=Common)


@dataclass(frozen=True)
class TrainView(PageView):
    PAGE = "train"

    common: Common = field(default_factory=Common)
    arch: str = control(Choice(ARCHITECTURES), "transformer", key="train_arch")  # the model family trained
    gpt_task: str = control(Choice(tuple(GPT_TASKS)), "shakespeare", key="train_gpt_task", url="task")  # GPT family
