"""Hostile lesson files given to the Lesson page's upload: a zip or a pickle named .json, UTF-16, a nesting bomb,
a file over 256 KB, a 4000-digit number, a key twice, `__proto__`, a page or a model named by a path. Each gets
"This lesson file was not loaded. <why> The lesson on screen stays open." on the page (with the slide at fault),
the lesson and slide on screen stay, and no lesson is added to the picker.

The reader itself is unit-tested in tests/services/test_lessons.py; here each file goes through the page, in
English and Chinese for a few. Expected words are written out here, not taken from the catalog.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest

from services.lessons import shipped_file

from .apptest import Says, assert_page_drawn, open_page, run

NOT_LOADED = Says("This lesson file was not loaded.", "没有载入这个课程文件。")
STAYS = Says("The lesson on screen stays open.", "屏幕上的课程保持不变。")
BOTH = ("en", "zh")
SLIDE = 4  # the slide on screen when the file comes


@cache
def shipped() -> dict:
    return json.loads(shipped_file("attention-basics"))


def edited(edit) -> bytes:
    lesson = json.loads(json.dumps(shipped()))  # a deep copy
    edit(lesson)
    return json.dumps(lesson, ensure_ascii=False).encode("utf-8")


def zipped_lesson() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("lesson.json", bytes(range(256)))  # not UTF-8 either
    return buffer.getvalue()


def padded_to(size: int) -> bytes:
    data = shipped_file("attention-basics")
    return data + b" " * (size - len(data))  # valid JSON, only too big


@dataclass(frozen=True)
class LessonCase:
    id: str
    file: Callable[[], bytes]
    says: Says  # the reason, between NOT_LOADED and STAYS
    langs: tuple[str, ...] = ("en",)


NOT_TEXT = Says("The lesson file is not text (UTF-8 JSON).", "课程文件不是文本（UTF-8 JSON）。")
CASES = [
    LessonCase("zip-named-json", zipped_lesson, NOT_TEXT, BOTH),
    LessonCase("pickle-named-json", lambda: pickle.dumps({"format": "attention-lab-lesson/1"}, protocol=4), NOT_TEXT),
    LessonCase("utf-16", lambda: json.dumps(shipped()).encode("utf-16"), NOT_TEXT),
    LessonCase(
        "nesting-bomb",
        lambda: b"[" * 200_000 + b"]" * 50_000,
        Says("nested deeper than a lesson ever is (more than 4 levels)", "嵌套层数超出了课程可能有的深度（超过 4 层）"),
        BOTH,
    ),
    LessonCase(
        "300KB", lambda: padded_to(300 * 1024), Says("too large: 300 KB, at most 256 KB", "太大：300 KB，最多 256 KB")
    ),
    LessonCase(
        "4000-digit-head",
        lambda: edited(lambda d: d["slides"][1]["state"].update(wt_head="__N__")).replace(b'"__N__"', b"7" * 4000),
        Says("a number with 4000 digits", "一个 4000 位的数字"),
    ),
    LessonCase(
        "format-twice",
        lambda: b'{"format": "attention-lab-lesson/1", "format": "reveal.js", "title": {}, "slides": []}',
        Says("“format” appears twice in the same object", "“format” 在同一个对象里出现了两次"),
    ),
    LessonCase(
        "__proto__",
        lambda: edited(lambda d: d.update(__proto__={"admin": True})),
        Says("“__proto__” is not part of a lesson", "“__proto__” 不属于课程格式"),
    ),
    LessonCase(
        "page-path",
        lambda: edited(lambda d: d["slides"][1].update(page="../../etc/passwd")),
        Says("Slide 2: There is no page “../../etc/passwd”", "第 2 张幻灯片：幻灯片无法显示“../../etc/passwd”这个页面"),
    ),
    LessonCase(
        "model-path",
        lambda: edited(lambda d: d["slides"][2]["state"].update(model="../../../model.safetensors")),
        Says(
            "Slide 3: “state.model” must be one of: reverse, sort, translate",
            "第 3 张幻灯片：“state.model” 必须是以下之一",
        ),
    ),
    LessonCase("empty", lambda: b"", Says("The lesson file is empty.", "课程文件是空的。")),
]


@pytest.mark.parametrize(
    ("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES for lang in c.langs]
)
def test_hostile_lesson_upload(case: LessonCase, lang: str):
    at = open_page("lesson", lang, {"slide": str(SLIDE)})
    lessons, heading = list(at.selectbox(key="lesson").options), at.header[0].value
    at.file_uploader(key="lesson_upload").set_value(("lesson.json", case.file(), "application/json"))
    run(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    assert errors[0].startswith(NOT_LOADED[lang]) and errors[0].endswith(STAYS[lang]), errors[0]
    assert case.says[lang] in errors[0] and len(errors[0]) < 1000, errors[0]
    assert at.session_state["lesson"] == "attention-basics" and at.session_state["lesson_slide"] == SLIDE
    assert at.header[0].value == heading and list(at.selectbox(key="lesson").options) == lessons
    assert_page_drawn(at, "lesson", lang)
