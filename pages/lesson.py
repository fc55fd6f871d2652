"""Lesson: a ready-made (or uploaded, or built) sequence of slides, each a few sentences and a live view."""

from ui.lesson.page import render
from ui.navigation import require_entry
from ui.state import current
from views import LessonView

require_entry()
render(current(LessonView))
