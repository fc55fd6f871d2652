"""Lesson: a ready-made (or uploaded, or built) sequence of slides, each a few sentences and a live view."""

from ui.lesson.page import lesson_page
from ui.navigation import require_entry

require_entry()
lesson_page()
