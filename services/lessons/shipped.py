"""The lessons shipped in the repository (lessons/*.json), each named by its file name without ".json"."""

from __future__ import annotations

from functools import cache

from attention_lab.paths import APP_ROOT

from .lesson import Lesson
from .parse import parse_lesson

LESSONS_DIR = APP_ROOT / "lessons"


@cache
def shipped_lessons() -> dict[str, Lesson]:
    """{name: lesson} of every shipped file, read and checked once per process like any uploaded file."""
    return {path.stem: parse_lesson(path.read_bytes()) for path in sorted(LESSONS_DIR.glob("*.json"))}


def shipped_file(name: str) -> bytes:
    """The shipped file's bytes exactly as in the repository (what "Download" gives)."""
    if name not in shipped_lessons():
        raise KeyError(name)
    return (LESSONS_DIR / f"{name}.json").read_bytes()
