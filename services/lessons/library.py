"""Lessons that are not shipped (uploaded, or built in the app), kept once per server by their digest, so the
students of a class on this server can open the lesson their teacher shows. Bounded: the least recently used go."""

from __future__ import annotations

import threading
from collections import OrderedDict

from .lesson import Lesson

PREFIX = "lesson-"  # a kept lesson's id: PREFIX + its digest (shipped lessons are named by their file)


class LessonLibrary:
    """A thread-safe LRU of lessons by id."""

    def __init__(self, max_lessons: int = 64) -> None:
        self._lessons: OrderedDict[str, Lesson] = OrderedDict()
        self._lock = threading.Lock()
        self.max_lessons = max_lessons

    def keep(self, lesson: Lesson) -> str:
        """Keep `lesson`; returns its id."""
        lesson_id = PREFIX + lesson.digest
        with self._lock:
            self._lessons[lesson_id] = lesson
            self._lessons.move_to_end(lesson_id)
            while len(self._lessons) > self.max_lessons:
                self._lessons.popitem(last=False)
        return lesson_id

    def get(self, lesson_id: str) -> Lesson | None:
        with self._lock:
            lesson = self._lessons.get(lesson_id)
            if lesson is not None:
                self._lessons.move_to_end(lesson_id)
            return lesson

    def __len__(self) -> int:
        with self._lock:
            return len(self._lessons)


LIBRARY = LessonLibrary()
