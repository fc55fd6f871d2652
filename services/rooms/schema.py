"""Strict checks of everything sent to a room, turning it into canonical compact JSON or raising InvalidState.

The state is a page's view (views/): its page and that view's settings, checked by the view's own check. A
question's context is a small flat mapping of scalars. Text is stored as ASCII JSON, so any valid string survives
every backend.
"""

import json
import math
import re
from collections.abc import Mapping

import safetensors

from services.rooms.errors import InvalidState, LessonTooLarge, ModelTooLarge
from services.rooms.limits import MB, RoomLimits
from views import ViewError, check_mapping, view_class

_NAME = re.compile(r"[A-Za-z0-9_.:-]+")
_EXTRA_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
_MAX_INT = 2**53  # exact in every JSON reader
_SHOWN_FIELD_CHARS = 40
MAX_CONFIG_BYTES = 64 * 1024


PAGE = "page"  # the state's one setting outside the view: the page's URL path, e.g. "step-by-step"
QUESTION_FIELDS = ("id", "kind", "options", "context")


def shown(field: object) -> str:
    """A field name from the user, made safe to echo in a message: printable and short."""
    text = "".join(ch for ch in str(field) if ch.isprintable())
    return text if len(text) <= _SHOWN_FIELD_CHARS else text[: _SHOWN_FIELD_CHARS - 1] + "…"


def canonical_json(value: object) -> str:
    """Compact, key-sorted, ASCII-only JSON: equal values give equal strings."""
    return json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"), allow_nan=False)


def check_text(field: str, value: object, limit: int, *, empty_ok: bool = True) -> str:
    """`value` if it is valid text of at most `limit` characters."""
    if not isinstance(value, str):
        raise InvalidState(InvalidState.NOT_TEXT, field=shown(field))
    if len(value) > limit:
        raise InvalidState(InvalidState.TOO_LONG, field=shown(field), length=len(value), limit=limit)
    if not value and not empty_ok:
        raise InvalidState(InvalidState.EMPTY, field=shown(field))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no browser or file can hold it
        raise InvalidState(InvalidState.NOT_VALID_TEXT, field=shown(field)) from None
    return value


def check_int(field: str, value: object, low: int, high: int) -> int:
    """`value` if it is an int (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidState(InvalidState.NOT_INT, field=shown(field), low=low, high=high)
    return value


def check_name(field: str, value: object, limit: int = 64) -> str:
    """A short identifier (question ids and kinds): letters, digits, '_', '-', '.', ':'."""
    text = check_text(field, value, limit, empty_ok=False)
    if not _NAME.fullmatch(text):
        raise InvalidState(InvalidState.BAD_NAME, field=shown(field))
    return text


def _mapping(value: object) -> Mapping:
    if not isinstance(value, Mapping):
        raise InvalidState(InvalidState.NOT_A_MAPPING)
    return value


def _check_scalars(field: str, value: object, limits: RoomLimits) -> dict:
    """A flat mapping of at most max_extra short lowercase names to text, numbers, bools or None."""
    mapping = _mapping(value)
    if len(mapping) > limits.max_extra:
        raise InvalidState(InvalidState.TOO_MANY, field=field, count=len(mapping), limit=limits.max_extra)
    checked: dict[str, str | int | float | bool | None] = {}
    for name, item in mapping.items():
        if not isinstance(name, str) or not _EXTRA_KEY.fullmatch(name):
            raise InvalidState(InvalidState.BAD_NAME, field=f"{field}.{shown(name)}")
        where = f"{field}.{name}"
        if isinstance(item, str):
            checked[name] = check_text(where, item, limits.max_text_chars)
        elif isinstance(item, bool) or item is None:
            checked[name] = item
        elif isinstance(item, int):
            checked[name] = check_int(where, item, -_MAX_INT, _MAX_INT)
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise InvalidState(InvalidState.NOT_NUMBER, field=where)
            checked[name] = item
        else:
            raise InvalidState(InvalidState.NOT_SCALAR, field=where)
    return checked


def _check_size(text: str, limits: RoomLimits) -> str:
    if len(text) > limits.max_state_bytes:
        raise InvalidState(InvalidState.TOO_LARGE, size=len(text), limit=limits.max_state_bytes)
    return text


def state_json(state: object, limits: RoomLimits) -> str:
    """The teacher's view as canonical JSON: {"page": its URL path, …the settings of that page's view (views/)},
    each checked by the view's own check (the whole state replaces the last one)."""
    mapping = _mapping(state)
    page = mapping.get(PAGE)
    cls = view_class(page) if isinstance(page, str) else None
    if cls is None:
        raise InvalidState(InvalidState.UNKNOWN_PAGE, page=shown(page if page is not None else ""))
    try:
        settings = check_mapping(cls, {n: v for n, v in mapping.items() if n != PAGE}, "room", limits.max_input_chars)
    except ViewError as exc:
        raise InvalidState(exc.template, **exc.params) from None
    return _check_size(canonical_json({PAGE: page, **settings}), limits)


RUN_DEPTH = 3  # lists in a run record nest at most this deep: (evaluations, layers, heads) of a score


def _check_run_value(where: str, value: object, limits: RoomLimits, depth: int = 0) -> object:
    """A run record's value: a scalar (short text, a whole or finite number, a flag, None) or a list of them,
    nested at most RUN_DEPTH deep."""
    if isinstance(value, list | tuple):
        if depth >= RUN_DEPTH:
            raise InvalidState(InvalidState.NOT_SCALAR, field=where)
        return [_check_run_value(f"{where}[{i}]", item, limits, depth + 1) for i, item in enumerate(value)]
    return _check_scalars(where, {"v": value}, limits)["v"]


def run_json(run: object, limits: RoomLimits) -> str:
    """The training run a class watches, as canonical JSON: a flat mapping of at most max_extra short lowercase
    names to scalars or (nested) lists of them — the curves so far — within max_run_bytes. What the names mean is
    the page's (ui.classroom.class_run); a room only keeps and hands on the record."""
    mapping = _mapping(run)
    if len(mapping) > limits.max_extra:
        raise InvalidState(InvalidState.TOO_MANY, field="run", count=len(mapping), limit=limits.max_extra)
    checked = {}
    for name, value in mapping.items():
        if not isinstance(name, str) or not _EXTRA_KEY.fullmatch(name):
            raise InvalidState(InvalidState.BAD_NAME, field=f"run.{shown(name)}")
        checked[name] = _check_run_value(f"run.{name}", value, limits)
    text = canonical_json(checked)
    if len(text) > limits.max_run_bytes:
        raise InvalidState(InvalidState.TOO_LARGE, size=len(text), limit=limits.max_run_bytes)
    return text


def question_json(question: object, limits: RoomLimits) -> str:
    """A question {id, kind, options[, context]} checked, as canonical JSON; answers are option indices."""
    mapping = _mapping(question)
    for name in mapping:
        if name not in QUESTION_FIELDS:
            raise InvalidState(InvalidState.UNKNOWN_FIELD, field=shown(name))
    for name in QUESTION_FIELDS[:3]:
        if name not in mapping:
            raise InvalidState(InvalidState.MISSING_FIELD, field=name)
    options = mapping["options"]
    if isinstance(options, str | bytes) or not isinstance(options, list | tuple):
        raise InvalidState(InvalidState.OPTIONS, low=2, high=limits.max_options, count=0)
    if not 2 <= len(options) <= limits.max_options:
        raise InvalidState(InvalidState.OPTIONS, low=2, high=limits.max_options, count=len(options))
    checked = {
        "id": check_name("id", mapping["id"]),
        "kind": check_name("kind", mapping["kind"], 32),
        "options": [check_text(f"options[{i}]", o, limits.max_option_chars) for i, o in enumerate(options)],
        "context": _check_scalars("context", mapping.get("context", {}), limits),
    }
    return _check_size(canonical_json(checked), limits)


def refuse_key(text: str, key: str) -> str:
    """`text` unless it holds the teacher's key: what the teacher sends, every student sees."""
    if key in text:
        raise InvalidState(InvalidState.KEY_INSIDE)
    return text


def check_choice(choice: object, n_options: int) -> int:
    """An answer: the index of one of the question's options."""
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < n_options:
        raise InvalidState(InvalidState.CHOICE, choice=shown(choice)[:12], count=n_options)
    return choice


def check_model_name(name: object) -> str:
    """A shared model's name: 1–64 printable characters (any script), trimmed."""
    if isinstance(name, str):
        trimmed = name.strip()
        if 0 < len(trimmed) <= 64 and trimmed.isprintable():
            return check_text("name", trimmed, 64)
    raise InvalidState(InvalidState.MODEL_NAME, limit=64)


def check_lesson(lesson_id: object, data: object, limits: RoomLimits) -> tuple[str, bytes]:
    """A lesson's id (an identifier, like a question's) and its JSON file's bytes within the size limit. The bytes
    are not read here: whoever opens the lesson parses them with the lesson format's strict reader."""
    lesson_id = check_name("lesson", lesson_id, 128)
    if not isinstance(data, bytes | bytearray) or not data:
        raise InvalidState(InvalidState.LESSON)
    if len(data) > limits.max_lesson_bytes:
        raise LessonTooLarge(size_kb=len(data) / 1024, limit_kb=limits.max_lesson_bytes / 1024)
    return lesson_id, bytes(data)


def check_model_files(config_json: object, weights: object, limits: RoomLimits) -> tuple[bytes, bytes]:
    """config.json and safetensors bytes within the size limit, both parsed (a pickle never passes)."""
    if not isinstance(config_json, bytes | bytearray) or not isinstance(weights, bytes | bytearray):
        raise InvalidState(InvalidState.MODEL_WEIGHTS)
    size = len(config_json) + len(weights)
    if size > limits.max_model_bytes:
        raise ModelTooLarge(size_mb=size / MB, limit_mb=limits.max_model_bytes / MB)
    try:
        config = json.loads(bytes(config_json)) if len(config_json) <= MAX_CONFIG_BYTES else None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        config = None
    if not isinstance(config, dict):
        raise InvalidState(InvalidState.MODEL_CONFIG)
    _check_safetensors(bytes(weights))
    return bytes(config_json), bytes(weights)


def _check_safetensors(data: bytes) -> None:
    """Parse the whole file with the safetensors library (header, dtypes, offsets); InvalidState if it fails."""
    try:
        tensors = safetensors.deserialize(data)
    except Exception:  # SafetensorError and whatever a hostile header provokes: all mean "not a safetensors file"
        raise InvalidState(InvalidState.MODEL_WEIGHTS) from None
    if not tensors:
        raise InvalidState(InvalidState.MODEL_WEIGHTS)
