"""A view to and from each place it travels: a class room's or a lesson slide's JSON settings, and a link's
query parameters. Every value passes the one check (validate.check_value); a refusal names the setting as that
place calls it.

Links hold ids and numbers as a person counts them (layer=2 is the second layer). A link written by an older
version may hold a choice's shown label in either language (kind=Cross-attention, kind=交叉注意力): the caller
passes `labels`, each choice's {label in any language: id}.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import PageView, build, by_name, fields, get
from .controls import Choice, Flag, Grid, Number, Text, Whole
from .errors import ViewError, shown
from .validate import check_value

V = TypeVar("V", bound=PageView)
_WHOLE = re.compile(r"-?[0-9]{1,9}")
_NUMBER = re.compile(r"-?[0-9]{1,9}(\.[0-9]{1,9})?")
ChoiceLabels = Callable[[Choice], Mapping[str, str]]


def to_mapping(view: PageView, channel: str) -> dict[str, Any]:
    """{name: value} of every control of `view` that travels on `channel` ("room" or "lesson")."""
    return {f.name: get(view, f.name) for f in fields(type(view)) if f.control.travels(channel)}


def check_mapping(cls: type[PageView], data: object, channel: str, text_limit: int | None = None) -> dict[str, Any]:
    """The settings `data` holds for a view of `cls` ("room" or "lesson"), each checked; ViewError at the first
    setting that is not one of this page's or does not fit. Absent settings are left out (they take defaults)."""
    if not isinstance(data, Mapping):
        raise ViewError(ViewError.NOT_MAPPING, field="state")
    known = {f.name: f for f in fields(cls) if f.control.travels(channel)}
    checked = {}
    for name, value in data.items():
        if not isinstance(name, str) or name not in known:
            where = shown(name)
            raise ViewError(ViewError.UNKNOWN_KEY, key=where, field=where, page=cls.PAGE, keys=", ".join(known))
        where = f"state.{name}" if channel == "lesson" else name
        checked[name] = check_value(where, known[name].control.spec, value, text_limit)
    return checked


def from_mapping(cls: type[V], data: object, channel: str, text_limit: int | None = None) -> V:
    """A view of `cls` from a room's or a slide's settings (check_mapping), defaults for the absent ones."""
    return build(cls, check_mapping(cls, data, channel, text_limit))


def param_text(cls: type[PageView], name: str, value: Any) -> str:
    """How a link writes control `name`'s value: an id, a number as shown on screen, true/false, the text."""
    spec = by_name(cls)[name].control.spec
    if isinstance(spec, Whole):
        return str(spec.shown(value))
    if isinstance(spec, Flag):
        return "true" if value else "false"
    if isinstance(spec, Number):
        return f"{value:g}"
    return str(value)


def to_params(view: PageView) -> dict[str, str]:
    """The query parameters of `view`'s link: every control that differs from its default (unset ones left out)."""
    return {
        f.control.url: param_text(type(view), f.name, value)
        for f in fields(type(view))
        if (value := get(view, f.name)) != f.default and value is not None
    }


@dataclass(frozen=True)
class LinkProblem:
    """A query parameter whose value the view cannot take: the parameter, its value as written (cut short), why."""

    param: str
    value: str
    error: ViewError


def _parsed(spec: Any, text: str, labels: ChoiceLabels | None) -> object:
    """The JSON-like value a link's text stands for, before the spec's check (which refuses a wrong one)."""
    text = text.strip()
    if isinstance(spec, Choice):
        if spec.options and isinstance(spec.options[0], int):
            return int(text) if _WHOLE.fullmatch(text) else text
        if text in spec.options or labels is None:
            return text
        return labels(spec).get(text, text)
    if isinstance(spec, Whole):
        return spec.stored(int(text)) if _WHOLE.fullmatch(text) else text
    if isinstance(spec, Number):
        return float(text) if _NUMBER.fullmatch(text) else text
    if isinstance(spec, Flag):
        return {"true": True, "false": False}.get(text.lower(), text)
    if isinstance(spec, Text | Grid):
        return text
    return text


def from_params(
    cls: type[PageView], params: Mapping[str, str], labels: ChoiceLabels | None = None
) -> tuple[dict[str, Any], list[LinkProblem]]:
    """The settings a link's parameters give a view of `cls` ({name: value}, only those it names and that fit),
    and a LinkProblem for each parameter of this page it names with a value the control cannot take."""
    settings: dict[str, Any] = {}
    problems = []
    for f in fields(cls):
        param = f.control.url
        if param not in params:
            continue
        text = params[param]
        spec = f.control.spec
        raw = text if isinstance(spec, Text) else text.strip()
        try:
            value = raw if isinstance(spec, Text) else _parsed(spec, raw, labels)
            settings[f.name] = check_value(param, spec, value, as_shown=True)
        except ViewError as error:
            problems.append(LinkProblem(param, shown(text), error))
    return settings, problems


def fit(view: V, highs: Mapping[str, int]) -> tuple[V, list[str]]:
    """`view` with each whole-number control named in `highs` that is above its high (this model's last layer, head
    or row) reset to its default; and the names reset. Values under the spec's low cannot be there (checked)."""
    reset = []
    settings = {}
    for name, high in highs.items():
        value = get(view, name)
        if isinstance(value, int) and value > high:
            settings[name] = by_name(type(view))[name].default
            reset.append(name)
    if not reset:
        return view, []
    return build(type(view), {f.name: get(view, f.name) for f in fields(type(view))} | settings), reset
