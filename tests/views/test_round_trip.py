"""Every control of every page's view round-trips through a link, a class room and a lesson file, and a value
out of its range is refused by each with a message that names the setting and what it may hold."""

from __future__ import annotations

import json
import math

import pytest

from services.lessons import FORMAT, LessonError, parse_lesson
from services.lessons.schema import LIMITS as LESSON_LIMITS
from services.lessons.schema import TRANSFORMERS
from services.rooms import InvalidState, MemoryRoomStore, RoomLimits
from views import VIEWS, Choice, Field, Flag, Grid, Number, Text, Whole, build, fields, from_params, to_params
from views.base import values

ROOM_LIMITS = RoomLimits()


def samples(field: Field, channel: str) -> list:
    """Values `field` may hold, its bounds included (written here from the spec's numbers, checked by every
    channel's own reader)."""
    spec = field.control.spec
    if field.name == "model":
        return ["reverse", "translate-zh"] if channel == "lesson" else ["reverse", "my model (yours) ü", "m" * 128]
    found: list  # what samples returns: values of whatever type the field holds (None too)
    if isinstance(spec, Choice):
        found = list(spec.options)
    elif isinstance(spec, Whole):
        found = sorted({spec.low, spec.high, spec.low + spec.step * ((spec.high - spec.low) // spec.step // 2)})
    elif isinstance(spec, Number):
        found = [spec.low, spec.high, round((spec.low + spec.high) / 2, 3)]
    elif isinstance(spec, Flag):
        found = [True, False]
    elif isinstance(spec, Grid):
        found = ["1", "10/11", "/".join(["1" * spec.max_size] * spec.max_size)]
    else:
        assert isinstance(spec, Text)
        limit = {"lesson": LESSON_LIMITS.max_input_chars, "room": ROOM_LIMITS.max_input_chars}.get(channel, spec.limit)
        found = ["", "a b c", "字 ü \u202e 😀", "x" * min(limit, spec.limit)]
    if getattr(spec, "none_ok", False):
        found.append(None)
    return found


def bad_values(field: Field) -> list:
    """Values no channel may give `field`: each names the field in its refusal."""
    spec = field.control.spec
    if isinstance(spec, Choice):
        return ["<b>nope</b>", 3.5, True]
    if isinstance(spec, Whole):
        return [spec.high + 1, spec.low - 1, "1", True, 1.5] + ([spec.low + 1] if spec.step > 1 else [])
    if isinstance(spec, Number):
        return [spec.high + 1, spec.low - 1, math.nan, math.inf, "1", True]
    if isinstance(spec, Flag):
        return [1, "true", None]
    if isinstance(spec, Grid):
        return ["12", "1/0", "101/01", "", 7]
    assert isinstance(spec, Text)
    return ["x" * (spec.limit + 1), "a\x1bb", 5]


CASES = [(page, field) for page, cls in VIEWS.items() for field in fields(cls)]
IDS = [f"{page}.{field.name}" for page, field in CASES]


@pytest.mark.parametrize(("page", "field"), CASES, ids=IDS)
def test_every_control_round_trips_through_a_link(page, field):
    cls = VIEWS[page]
    for value in samples(field, "url"):
        view = build(cls, {field.name: value})
        params = to_params(view)
        assert all(isinstance(text, str) for text in params.values())
        settings, problems = from_params(cls, params)
        assert problems == []
        assert build(cls, settings) == view, (value, params)
        if value != field.default and value is not None:
            assert field.control.url in params  # a value other than the default is in the link
        else:
            assert field.control.url not in params  # the default leaves the link


@pytest.mark.parametrize(("page", "field"), [c for c in CASES if c[1].control.room], ids=[
    i for i, c in zip(IDS, CASES, strict=True) if c[1].control.room])  # fmt: skip
def test_every_control_round_trips_through_a_class_room(page, field):
    cls = VIEWS[page]
    store = MemoryRoomStore(ROOM_LIMITS)
    ticket = store.create_room()
    for value in samples(field, "room"):
        view = build(cls, {field.name: value})
        sent = {"page": page} | {f.name: values(view)[f.name] for f in fields(cls) if f.control.room}
        store.publish(ticket.code, ticket.key, sent)
        state = store.snapshot(ticket.code).state
        assert json.loads(json.dumps(state)) == state  # plain JSON, as every backend keeps it
        assert state.pop("page") == page
        assert build(cls, state) == view


def lesson_with(page: str, state: dict) -> bytes:
    slide = {"page": page, "state": state, "title": {"en": "t", "zh": "题"}, "text": {"en": "x", "zh": "文"}}
    doc = {"format": FORMAT, "title": {"en": "L", "zh": "课"}, "slides": [slide]}
    return json.dumps(doc, ensure_ascii=False).encode()


SLIDE_CASES = [(p, f) for p, f in CASES if VIEWS[p].SLIDE and f.control.lesson]


@pytest.mark.parametrize(("page", "field"), SLIDE_CASES, ids=[f"{p}.{f.name}" for p, f in SLIDE_CASES])
def test_every_control_round_trips_through_a_lesson_file(page, field):
    cls = VIEWS[page]
    for value in samples(field, "lesson"):
        lesson = parse_lesson(lesson_with(page, {field.name: value}))
        assert lesson.slides[0].view() == build(cls, {field.name: value})
        assert parse_lesson(lesson.to_json()) == lesson  # a downloaded lesson reads back the same


def test_a_lesson_names_only_shipped_transformers():
    assert parse_lesson(lesson_with("attention", {"model": TRANSFORMERS[0]})).slides[0].state["model"]
    with pytest.raises(LessonError) as caught:
        parse_lesson(lesson_with("attention", {"model": "reverse-rnn"}))
    assert caught.value.params["field"] == "state.model"


def bad_link_texts(field: Field) -> list[str]:
    """What a hand-written link might give `field` that it cannot take (a link counts layers from 1)."""
    spec = field.control.spec
    if isinstance(spec, Whole):
        extra = [str(spec.shown(spec.low + 1))] if spec.step > 1 else []
        return [str(spec.shown(spec.high + 1)), str(spec.shown(spec.low - 1)), "1.5", "abc", "1e9", "５", *extra]
    if isinstance(spec, Number):
        return [f"{spec.high + 1:g}", f"{spec.low - 1:g}", "nan", "inf", "abc"]
    if isinstance(spec, Flag):
        return ["maybe", "1", "yes"]
    if isinstance(spec, Choice):
        return ["<b>nope</b>", "999"]
    if isinstance(spec, Grid):
        return ["12", "1/0", "101/01"]
    assert isinstance(spec, Text)
    return ["x" * (spec.limit + 1), "a\x1bb"]


@pytest.mark.parametrize(("page", "field"), CASES, ids=IDS)
def test_every_control_refuses_a_bad_link_value_naming_the_parameter_and_its_range(page, field):
    cls = VIEWS[page]
    spec = field.control.spec
    for text in bad_link_texts(field):
        settings, problems = from_params(cls, {field.control.url: text})
        assert settings == {}, (text, settings)
        [problem] = problems
        assert problem.param == field.control.url
        message = str(problem.error)
        assert f"“{field.control.url}”" in message, message
        if isinstance(spec, Whole):
            assert f"from {spec.shown(spec.low)} to {spec.shown(spec.high)}" in message
        elif isinstance(spec, Number):
            assert f"from {spec.low:g} to {spec.high:g}" in message
        elif isinstance(spec, Choice):
            assert ", ".join(map(str, spec.options)) in message


def room_state(page: str, name: str, value) -> dict:
    return {"page": page, name: value}


@pytest.mark.parametrize(("page", "field"), [c for c in CASES if c[1].control.room], ids=[
    i for i, c in zip(IDS, CASES, strict=True) if c[1].control.room])  # fmt: skip
def test_every_control_refuses_a_bad_room_value_with_its_message(page, field):
    store = MemoryRoomStore(ROOM_LIMITS)
    ticket = store.create_room()
    for value in bad_values(field):
        with pytest.raises(InvalidState) as caught:
            store.publish(ticket.code, ticket.key, room_state(page, field.name, value))
        assert caught.value.params["field"] == field.name
        assert f"“{field.name}”" in str(caught.value)
    assert store.snapshot(ticket.code).state is None or store.version(ticket.code) == 1  # nothing was published


@pytest.mark.parametrize(("page", "field"), SLIDE_CASES, ids=[f"{p}.{f.name}" for p, f in SLIDE_CASES])
def test_every_control_refuses_a_bad_lesson_value_with_its_message(page, field):
    for value in bad_values(field):
        if isinstance(value, float) and not math.isfinite(value):
            continue  # JSON has no NaN: the lesson reader refuses the file before the slide (tests/services)
        with pytest.raises(LessonError) as caught:
            parse_lesson(lesson_with(page, {field.name: value}))
        assert caught.value.params["field"] == f"state.{field.name}"
        assert caught.value.slide == 1


def test_a_setting_of_another_page_or_an_unknown_one_is_refused_everywhere():
    store = MemoryRoomStore(ROOM_LIMITS)
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.publish(ticket.code, ticket.key, {"page": "attention", "wt_kind": "cross"})
    assert caught.value.params["field"] == "wt_kind" and "attention" in str(caught.value)
    with pytest.raises(LessonError) as lesson_caught:
        parse_lesson(lesson_with("step-by-step", {"kind": "cross"}))
    assert lesson_caught.value.params["key"] == "kind"
    settings, problems = from_params(VIEWS["attention"], {"wt_kind": "cross", "unknown": "1"})
    assert settings == {} and problems == []  # a link's parameters of other pages are not this page's business


def test_an_oversized_state_is_refused_as_a_whole():
    store = MemoryRoomStore(RoomLimits(max_state_bytes=1000))
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.publish(ticket.code, ticket.key, {"page": "attention", "input": "x" * 600, "target": "y" * 600})
    assert caught.value.template == InvalidState.TOO_LARGE
