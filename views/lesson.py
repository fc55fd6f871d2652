"""The Lesson page's view: which lesson and which slide. A slide cannot show the Lesson page itself."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import PageView
from .common import Common
from .controls import Text, Whole, control

DEFAULT_LESSON = "attention-basics"
MAX_SLIDES = 40


@dataclass(frozen=True)
class LessonView(PageView):
    PAGE = "lesson"
    SLIDE = False

    common: Common = field(default_factory=Common)
    lesson: str = control(Text(128), DEFAULT_LESSON)  # a shipped lesson's file name or the server library's id
    slide: int = control(Whole(1, MAX_SLIDES), 1, key="lesson_slide", fitted=True)  # its high: the lesson's slides
