"""Download the lesson on screen; upload one's own. A bad file is explained and the lesson on screen stays."""

from __future__ import annotations

import streamlit as st

from services.lessons import LIMITS, Lesson, LessonError, parse_lesson, shipped_file, shipped_lessons

from ..i18n import _, explain
from .state import go_to, keep_own

UPLOAD_KEY = "lesson_upload"
PROBLEM_KEY = "_lesson_upload_problem"  # the LessonError of the last upload, shown once
MAX_UPLOAD_MB = 1  # the browser refuses larger files; services.lessons.LIMITS refuses more than 256 KB itself


def lesson_bytes(lesson_id: str, lesson: Lesson) -> bytes:
    """What "Download" gives: a shipped lesson's file exactly as in the repository, else the lesson as JSON."""
    return shipped_file(lesson_id) if lesson_id in shipped_lessons() else lesson.to_json().encode("utf-8")


def receive(data: bytes) -> str:
    """Read an uploaded file and show its lesson from its first slide; returns its id (LessonError when bad)."""
    lesson = parse_lesson(data)
    lesson_id = keep_own(lesson)
    go_to(lesson_id)
    return lesson_id


def _uploaded() -> None:
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        return
    try:
        receive(file.getvalue())
    except LessonError as exc:
        st.session_state[PROBLEM_KEY] = exc


def problem_text(exc: LessonError) -> str:
    """The reason in this session's language, with the slide it concerns."""
    reason = explain(exc)
    if exc.slide is not None:
        reason = _("Slide {n}: {reason}").format(n=exc.slide, reason=reason)
    return _("This lesson file was not loaded. {reason} The lesson on screen stays open.").format(reason=reason)


def files_panel(lesson_id: str, lesson: Lesson) -> None:
    """Download button and uploader, with the last upload's problem (if any)."""
    problem = st.session_state.pop(PROBLEM_KEY, None)
    if problem is not None:
        st.error(problem_text(problem))
    st.download_button(
        _("⬇ Download this lesson (JSON)"), lesson_bytes(lesson_id, lesson), file_name=f"{lesson_id}.json",
        mime="application/json", on_click="ignore", key="lesson_download",
        help=_("Edit it in any text editor and upload it again, or share it with other teachers."),
    )  # fmt: skip
    st.file_uploader(
        _("Upload a lesson (.json, at most {kb} KB)").format(kb=LIMITS.max_bytes // 1024), type=["json"],
        key=UPLOAD_KEY, on_change=_uploaded, max_upload_size=MAX_UPLOAD_MB,
        help=_("A lesson file is checked strictly and never run: it only names pages, their settings and text."),
    )  # fmt: skip
