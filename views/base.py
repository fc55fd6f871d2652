"""A page's view: a frozen dataclass of controls plus the shared part every page holds (`Common`).

`fields(cls)` lists a view's controls flattened (the shared ones first), each with its names and default; the
functions below read and build views by control name, so rooms, lessons, links and sessions need no list of
their own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .controls import CONTROL, Control

V = TypeVar("V", bound="PageView")
Spec = TypeVar("Spec")


@dataclass(frozen=True)
class PageView:
    """Base of every page's view. PAGE: the page's URL path (its id in rooms and lessons); SLIDE: whether a lesson
    slide can show this page."""

    PAGE: ClassVar[str] = ""
    SLIDE: ClassVar[bool] = True


@dataclass(frozen=True)
class Field:
    """One control of a view: where it sits (`path` of attribute names), its Control and its default."""

    path: tuple[str, ...]
    control: Control
    default: Any

    @property
    def name(self) -> str:
        return self.control.name


def _controls(cls: type, prefix: tuple[str, ...]) -> Iterator[Field]:
    for f in dataclasses.fields(cls):
        if CONTROL in f.metadata:
            spec, name, key, url, room, lesson, fitted = f.metadata[CONTROL]
            name = name or f.name
            control = Control(spec, name, key or name, url or f.name, room, lesson, fitted)
            yield Field((*prefix, f.name), control, f.default)
        elif dataclasses.is_dataclass(f.default_factory):
            yield from _controls(f.default_factory, (*prefix, f.name))


_FIELDS: dict[type, tuple[Field, ...]] = {}
_BY_NAME: dict[type, dict[str, Field]] = {}


def fields(cls: type) -> tuple[Field, ...]:
    """Every control of view class `cls`, the nested shared part's first; names, keys and URL names unique."""
    if cls not in _FIELDS:
        _FIELDS[cls] = _checked(cls, tuple(_controls(cls, ())))
    return _FIELDS[cls]


def _checked(cls: type, found: tuple[Field, ...]) -> tuple[Field, ...]:
    for attribute in ("name", "key", "url"):
        names = [getattr(f.control, attribute) for f in found]
        if len(names) != len(set(names)):
            raise TypeError(f"{cls.__name__}: two controls share a {attribute}: {sorted(names)}")
    return found


def by_name(cls: type) -> dict[str, Field]:
    """{control name: Field} of view class `cls` (made once per class; not to be changed)."""
    if cls not in _BY_NAME:
        _BY_NAME[cls] = {f.name: f for f in fields(cls)}
    return _BY_NAME[cls]


def spec_of(cls: type, name: str, kind: type[Spec]) -> Spec:
    """The spec view class `cls` declares for control `name`, checked to be a `kind` (a slider's bounds: a Whole or
    a Number), so a page reads its widget's range from the view rather than writing it again."""
    spec = by_name(cls)[name].control.spec
    if not isinstance(spec, kind):
        raise TypeError(f"{cls.__name__}.{name} is declared a {type(spec).__name__}, not a {kind.__name__}")
    return spec


def key_of(cls: type, name: str) -> str:
    """The session key of control `name` of view class `cls` (or of the shared `Common`)."""
    return by_name(cls)[name].control.key


def get(view: PageView, name: str) -> Any:
    """The value of the control `name` in `view`."""
    return _at(view, by_name(type(view))[name].path)


def _at(view: PageView, path: tuple[str, ...]) -> Any:
    value: Any = view
    for attribute in path:
        value = getattr(value, attribute)
    return value


def values(view: PageView) -> dict[str, Any]:
    """{control name: value} for every control of `view`."""
    return {f.name: _at(view, f.path) for f in fields(type(view))}


def build(cls: type[V], settings: Mapping[str, Any] | None = None) -> V:
    """A view of `cls` with the given (already checked) settings by control name, defaults elsewhere."""
    settings = settings or {}
    known = by_name(cls)
    unknown = set(settings) - set(known)
    if unknown:
        raise KeyError(f"{cls.__name__} has no controls {sorted(unknown)}")
    return _build(cls, (), {known[n].path: v for n, v in settings.items()})


def _build(cls: type, prefix: tuple[str, ...], by_path: dict[tuple[str, ...], Any]) -> Any:
    kwargs = {}
    for f in dataclasses.fields(cls):
        path = (*prefix, f.name)
        if CONTROL in f.metadata:
            if path in by_path:
                kwargs[f.name] = by_path[path]
        elif dataclasses.is_dataclass(f.default_factory):
            kwargs[f.name] = _build(f.default_factory, path, by_path)
    return cls(**kwargs)


def replace(view: V, **settings: Any) -> V:
    """`view` with some controls (by name) set to new, already checked, values."""
    return build(type(view), values(view) | settings)
