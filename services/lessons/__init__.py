"""Lessons as data: the "attention-lab-lesson/1" JSON format, its strict reader, the shipped lessons, and the
server's library of uploaded ones. Pure Python: nothing here imports Streamlit, and nothing in a file is executed.

- schema.py: the format tag, limits, and which pages and models a slide can name (each page's settings are its
  view's, views/);
- lesson.py: Lesson and Slide, and writing a lesson back to JSON;
- parse.py: parse_lesson(bytes) → Lesson, or LessonError naming the problem (errors.py);
- shipped.py: lessons/*.json; library.py: lessons uploaded on this server, by digest;
- build.py: a slide from a page's current view, added to a lesson.
"""

from views import DEFAULT_LESSON

from .build import add_slide, view_state
from .errors import LessonError
from .lesson import Lesson, Slide, in_language
from .library import LIBRARY, LessonLibrary
from .parse import check_lesson, parse_lesson
from .schema import FORMAT, LANGUAGES, LIMITS, PAGES, Limits
from .shipped import shipped_file, shipped_lessons

__all__ = [
    "DEFAULT_LESSON", "FORMAT", "LANGUAGES", "LIBRARY", "LIMITS", "PAGES", "Lesson", "LessonError",
    "LessonLibrary", "Limits", "Slide", "add_slide", "check_lesson", "in_language", "parse_lesson", "shipped_file",
    "shipped_lessons", "view_state",
]  # fmt: skip
