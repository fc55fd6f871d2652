"""What a view's field is: one control's kind (its type and bounds or options), its default, and its names.

A view is a frozen dataclass; each field is declared with `control(spec, default, ...)`, which records a `Control`
in the field's metadata. The same declaration serves the page's session keys, its URL, the class room and the
lesson file: ids and numbers only, never a translated label.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

LABELS_NONE: Mapping[str, str] = {}


@dataclass(frozen=True)
class Choice:
    """One of a few ids (or a few whole numbers). `labels` (id → English msgid) are the names a page shows: a link
    written by an older version holds a label in some language, and `aliases` maps other old spellings to an id."""

    options: tuple[str, ...] | tuple[int, ...]
    labels: Mapping[Any, str] = field(default_factory=dict)  # keys: the ids (str enums such as AttentionKind too)
    aliases: Callable[[str], str | None] | None = None

    def describe(self) -> str:
        return " | ".join(map(str, self.options))


@dataclass(frozen=True)
class Whole:
    """An int (never a bool) in [low, high], a multiple of `step` from `low`; `none_ok`: null (unset) too.
    `shown_from` is the number the screen and the URL give the first value (1 for layers and heads)."""

    low: int
    high: int
    step: int = 1
    none_ok: bool = False
    shown_from: int = 0  # 1: stored from 0, shown and linked from 1

    def shown(self, value: int) -> int:
        """The number a person sees for the stored `value` (layer 1, counted from 0, is shown as 2)."""
        return value + self.shown_from

    def stored(self, shown: int) -> int:
        """The value stored for a number a person wrote."""
        return shown - self.shown_from

    def describe(self, shown: bool = True) -> str:
        """'1–16' as a person counts (shown), '0–15' as stored (rooms and lesson files)."""
        low, high = (self.shown(self.low), self.shown(self.high)) if shown else (self.low, self.high)
        text = f"{low}–{high}" + (f" (×{self.step})" if self.step > 1 else "")
        return text + (" | null" if self.none_ok else "")


@dataclass(frozen=True)
class Number:
    """A finite number in [low, high]; an int is read as a float."""

    low: float
    high: float

    def describe(self) -> str:
        return f"{self.low:g}–{self.high:g}"


@dataclass(frozen=True)
class Flag:
    """true or false."""

    def describe(self) -> str:
        return "true | false"


@dataclass(frozen=True)
class Text:
    """Text of at most `limit` characters (a channel may set a lower limit); `none_ok`: null (unset) too."""

    limit: int
    none_ok: bool = False

    def describe(self) -> str:
        return f"≤ {self.limit}" + (" | null" if self.none_ok else "")


@dataclass(frozen=True)
class Grid:
    """A square grid of 0/1 cells, `min_size` to `max_size` rows, written as rows of digits joined by "/":
    "10/11" is [[1, 0], [1, 1]]. A custom attention mask: 1 = this query may attend to this key."""

    min_size: int = 1
    max_size: int = 16
    none_ok: bool = True

    def describe(self) -> str:
        text = f"rows of 0/1 joined by '/', {self.min_size}–{self.max_size} square"
        return text + (" | null" if self.none_ok else "")


Spec = Choice | Whole | Number | Flag | Text | Grid
CHANNELS = ("url", "room", "lesson")


@dataclass(frozen=True)
class Control:
    """One control of a page: its spec, its id in the class room and the lesson file (`name`), the session key
    the page's widget keeps it under (`key`), its URL parameter (`url`), and the channels it travels on. `fitted`:
    a whole number whose high is this model's or input's (a layer, a head, a token), lowered by the page
    (ui.state.fit), so a link's value it cannot take is said there, with that high, not the spec's."""

    spec: Spec
    name: str
    key: str
    url: str
    room: bool = True
    lesson: bool = True
    fitted: bool = False

    def travels(self, channel: str) -> bool:
        return channel == "url" or getattr(self, channel)


CONTROL = "control"  # the metadata key of a field's Control


def control(
    spec: Spec,
    default: Any,
    *,
    name: str = "",
    key: str = "",
    url: str = "",
    room: bool = True,
    lesson: bool = True,
    fitted: bool = False,
) -> Any:
    """A view field holding one control. `name` (the room and lesson id) defaults to the field's own name, `key`
    (the session key) to `name`, `url` to the field's name; filled in by `views.fields`."""
    meta = {CONTROL: (spec, name, key, url, room, lesson, fitted)}
    return dataclasses.field(default=default, metadata=meta)
