"""Read a lesson file strictly: bytes in, a Lesson out, or a LessonError naming the first problem.

Nothing in the file is ever executed or evaluated: it is parsed as JSON (no NaN, no Infinity, no duplicate keys,
no deep nesting, no huge numbers), then every field is checked against services.lessons.schema. Text is kept
exactly as written; the app shows it as plain text, never as Markdown, HTML or LaTeX.
"""

from __future__ import annotations

import contextlib
import json
import math
import unicodedata
from collections.abc import Mapping

from .errors import LessonError, shown
from .lesson import Lesson, Slide
from .schema import (
    FORMAT,
    LANGUAGES,
    LESSON_FIELDS,
    LIMITS,
    PAGE_STATE,
    SLIDE_FIELDS,
    Choice,
    Flag,
    Limits,
    Number,
    Spec,
    Whole,
    Words,
)

ALLOWED_CONTROLS = {"\n", "\t"}


def parse_lesson(data: bytes | str, limits: Limits = LIMITS) -> Lesson:
    """A lesson file's bytes (or text) → Lesson; LessonError when anything in it is wrong."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if not raw.strip():
        raise LessonError(LessonError.EMPTY)
    if len(raw) > limits.max_bytes:
        raise LessonError(LessonError.TOO_LARGE, size=math.ceil(len(raw) / 1024), limit=limits.max_bytes // 1024)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LessonError(LessonError.NOT_TEXT) from None
    if "\x00" in text:
        raise LessonError(LessonError.NOT_TEXT)
    check_depth(text, limits.max_depth)
    return check_lesson(read_json(text, limits), limits)


def check_depth(text: str, limit: int) -> None:
    """Refuse JSON whose objects and lists nest deeper than `limit`, before the parser recurses into it."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise LessonError(LessonError.TOO_DEEP, limit=limit)
        elif ch in "]}":
            depth -= 1


def read_json(text: str, limits: Limits = LIMITS) -> object:
    """json.loads with no NaN / Infinity, no duplicate keys and no huge numbers."""

    def constant(name: str) -> None:
        raise LessonError(LessonError.NOT_FINITE, value=name)

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > limits.max_number_digits:
            raise LessonError(LessonError.HUGE_NUMBER, digits=len(digits.lstrip("-")))
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            raise LessonError(LessonError.NOT_FINITE, value=shown(digits))
        return value

    def unique(pairs: list[tuple[str, object]]) -> dict:
        result: dict = {}
        for key, value in pairs:
            if key in result:
                raise LessonError(LessonError.DUPLICATE, field=shown(key))
            result[key] = value
        return result

    try:
        return json.loads(text, parse_constant=constant, parse_int=whole, parse_float=real, object_pairs_hook=unique)
    except json.JSONDecodeError as exc:
        raise LessonError(LessonError.NOT_JSON, line=exc.lineno, column=exc.colno) from None
    except RecursionError:  # check_depth runs first; this is the last line of defence
        raise LessonError(LessonError.TOO_DEEP, limit=limits.max_depth) from None


def check_lesson(data: object, limits: Limits = LIMITS) -> Lesson:
    """A parsed JSON value → Lesson, field by field."""
    if not isinstance(data, Mapping):
        raise LessonError(LessonError.NOT_LESSON)
    if "format" not in data:
        raise LessonError(LessonError.NOT_LESSON)
    if data["format"] != FORMAT:
        raise LessonError(LessonError.WRONG_FORMAT, expected=FORMAT, found=shown(data["format"]))
    _known_fields(data, LESSON_FIELDS)
    title = check_texts("title", data.get("title"), limits.max_title_chars)
    slides = data.get("slides")
    if "slides" not in data:
        raise LessonError(LessonError.MISSING, field="slides")
    if not isinstance(slides, list):
        raise LessonError(LessonError.NOT_LIST)
    if not 1 <= len(slides) <= limits.max_slides:
        raise LessonError(LessonError.SLIDE_COUNT, limit=limits.max_slides, count=len(slides))
    return Lesson(title, tuple(check_slide(i + 1, slide, limits) for i, slide in enumerate(slides)))


def check_slide(number: int, data: object, limits: Limits = LIMITS) -> Slide:
    """Slide `number` (1-based, for messages): its page, settings, title and text."""
    try:
        if not isinstance(data, Mapping):
            raise LessonError(LessonError.NOT_OBJECT, field="slide")
        _known_fields(data, SLIDE_FIELDS)
        page = data.get("page")
        if "page" not in data:
            raise LessonError(LessonError.MISSING, field="page")
        if not isinstance(page, str) or page not in PAGE_STATE:
            raise LessonError(LessonError.UNKNOWN_PAGE, page=shown(page), pages=", ".join(PAGE_STATE))
        state = check_state(page, data.get("state", {}))
        title = check_texts("title", data.get("title"), limits.max_title_chars)
        text = check_texts("text", data.get("text"), limits.max_text_chars)
    except LessonError as exc:
        exc.slide = number
        raise
    return Slide(page, state, title, text)


def check_state(page: str, state: object) -> dict[str, object]:
    """A slide's settings: only the page's own keys, each of its type and within its range."""
    if not isinstance(state, Mapping):
        raise LessonError(LessonError.NOT_OBJECT, field="state")
    specs = PAGE_STATE[page]
    checked = {}
    for key, value in state.items():
        if key not in specs:
            raise LessonError(LessonError.UNKNOWN_KEY, key=shown(key), page=page, keys=", ".join(specs))
        checked[key] = check_value(f"state.{key}", specs[key], value)
    return checked


def check_value(field: str, spec: Spec, value: object) -> object:
    """`value` if it fits `spec` (a Number's int comes back as a float)."""
    if isinstance(spec, Choice):
        if isinstance(value, str) and spec.read is not None:
            with contextlib.suppress(ValueError):
                value = spec.read(value)
        if not isinstance(value, str) or value not in spec.options:
            raise LessonError(LessonError.NOT_CHOICE, field=field, options=", ".join(spec.options))
        return str(value)
    if isinstance(spec, Whole):
        if value is None and spec.none_ok:
            return None
        fits = isinstance(value, int) and not isinstance(value, bool) and spec.low <= value <= spec.high
        if not fits or value % spec.step:
            if spec.step > 1:
                raise LessonError(LessonError.NOT_STEP, field=field, step=spec.step, low=spec.low, high=spec.high)
            raise LessonError(LessonError.NOT_WHOLE, field=field, low=spec.low, high=spec.high)
        return value
    if isinstance(spec, Number):
        if isinstance(value, bool) or not isinstance(value, int | float) or not spec.low <= value <= spec.high:
            raise LessonError(LessonError.NOT_NUMBER, field=field, low=f"{spec.low:g}", high=f"{spec.high:g}")
        return float(value)
    if isinstance(spec, Flag):
        if not isinstance(value, bool):
            raise LessonError(LessonError.NOT_FLAG, field=field)
        return value
    assert isinstance(spec, Words)
    return check_text(field, value, spec.limit)


def check_text(field: str, value: object, limit: int) -> str:
    """Text of at most `limit` characters without control characters (line breaks and tabs are fine)."""
    if not isinstance(value, str):
        raise LessonError(LessonError.NOT_TEXT_FIELD, field=field)
    if len(value) > limit:
        raise LessonError(LessonError.TOO_LONG, field=field, length=len(value), limit=limit)
    for ch in value:
        if ch not in ALLOWED_CONTROLS and unicodedata.category(ch) in ("Cc", "Cs"):
            raise LessonError(LessonError.BAD_CHARACTERS, field=field)
    return value


def check_texts(field: str, value: object, limit: int) -> dict[str, str]:
    """{"en": …, "zh": …}: both languages, each holding text (a class may be taught in either)."""
    if value is None:
        raise LessonError(LessonError.MISSING, field=field)
    if not isinstance(value, Mapping):
        raise LessonError(LessonError.NOT_OBJECT, field=field)
    for lang in value:
        if lang not in LANGUAGES:
            raise LessonError(LessonError.UNKNOWN_LANGUAGE, field=field, language=shown(lang))
    texts = {lang: check_text(f"{field}.{lang}", value[lang], limit) for lang in LANGUAGES if lang in value}
    for lang in LANGUAGES:
        if not texts.get(lang, "").strip():
            raise LessonError(LessonError.NO_LANGUAGE, field=field, language=lang)
    return texts


def _known_fields(data: Mapping, allowed: tuple[str, ...]) -> None:
    for name in data:
        if name not in allowed:
            raise LessonError(LessonError.UNKNOWN_FIELD, field=shown(name), allowed=", ".join(allowed))
