"""The one check of a setting's value against its control's spec: rooms, lessons, links and sessions all use it.

Values are JSON's: text, whole numbers, finite numbers, true/false, null where a spec allows it. A Number's int
comes back as a float. Every refusal is a ViewError naming the setting as its channel calls it.
"""

from __future__ import annotations

import math
import re
import unicodedata

from .controls import Choice, Flag, Grid, Number, Spec, Text, Whole
from .errors import ViewError

ALLOWED_CONTROLS = "\n\t"  # line breaks and tabs are text; other control characters are not
_GRID_ROW = re.compile(r"[01]+")


def check_value(
    where: str, spec: Spec, value: object, text_limit: int | None = None, *, as_shown: bool = False
) -> object:
    """`value` if it fits `spec`, else ViewError; `text_limit` lowers a Text's limit (a channel's own). `as_shown`:
    a refusal gives whole-number bounds as a person counts them (a link's layer=1 is the first layer); rooms and
    lesson files count from 0 as stored."""
    if value is None and getattr(spec, "none_ok", False):
        return None
    if isinstance(spec, Choice):
        return _choice(where, spec, value)
    if isinstance(spec, Whole):
        return _whole(where, spec, value, as_shown)
    if isinstance(spec, Number):
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ViewError(ViewError.NOT_NUMBER, field=where, low=f"{spec.low:g}", high=f"{spec.high:g}")
        if not spec.low <= value <= spec.high:
            raise ViewError(ViewError.NOT_NUMBER, field=where, low=f"{spec.low:g}", high=f"{spec.high:g}")
        return float(value)
    if isinstance(spec, Flag):
        if not isinstance(value, bool):
            raise ViewError(ViewError.NOT_FLAG, field=where)
        return value
    if isinstance(spec, Grid):
        return check_grid(where, spec, value)
    assert isinstance(spec, Text)
    return check_text(where, value, min(spec.limit, text_limit or spec.limit))


def _choice(where: str, spec: Choice, value: object) -> str | int:
    if isinstance(value, str):
        value = str(value)  # a str enum (model.naming's AttentionKind) stands for its value
    if isinstance(value, str) and value not in spec.options and spec.aliases is not None:
        value = spec.aliases(value) or value
    for option in spec.options:
        if type(value) is type(option) and value == option:
            return option
    raise ViewError(ViewError.NOT_CHOICE, field=where, options=", ".join(map(str, spec.options)))


def _whole(where: str, spec: Whole, value: object, as_shown: bool) -> int:
    whole = value if isinstance(value, int) and not isinstance(value, bool) else None
    if whole is not None and spec.low <= whole <= spec.high and (whole - spec.low) % spec.step == 0:
        return whole
    low, high = (spec.shown(spec.low), spec.shown(spec.high)) if as_shown else (spec.low, spec.high)
    if spec.step > 1:
        raise ViewError(ViewError.NOT_STEP, field=where, step=spec.step, low=low, high=high)
    raise ViewError(ViewError.NOT_WHOLE, field=where, low=low, high=high)


def check_text(where: str, value: object, limit: int) -> str:
    """Text of at most `limit` characters without control characters or lone surrogates."""
    if not isinstance(value, str):
        raise ViewError(ViewError.NOT_TEXT, field=where)
    if len(value) > limit:
        raise ViewError(ViewError.TOO_LONG, field=where, length=len(value), limit=limit)
    for ch in value:
        if ch not in ALLOWED_CONTROLS and unicodedata.category(ch) in ("Cc", "Cs"):
            raise ViewError(ViewError.BAD_CHARACTERS, field=where)
    return value


def check_grid(where: str, spec: Grid, value: object) -> str:
    """A square 0/1 grid written "10/11": every row as long as there are rows."""
    refused = ViewError(ViewError.NOT_GRID, field=where, low=spec.min_size, high=spec.max_size)
    if not isinstance(value, str) or len(value) > spec.max_size * (spec.max_size + 1):
        raise refused
    rows = value.split("/")
    if not spec.min_size <= len(rows) <= spec.max_size:
        raise refused
    if any(len(row) != len(rows) or not _GRID_ROW.fullmatch(row) for row in rows):
        raise refused
    return value


def grid_cells(text: str) -> list[list[bool]]:
    """ "10/11" → [[True, False], [True, True]] (a checked Grid value)."""
    return [[cell == "1" for cell in row] for row in text.split("/")]


def grid_text(cells) -> str:
    """The inverse of grid_cells: rows of truthy cells → "10/11"."""
    return "/".join("".join("1" if cell else "0" for cell in row) for row in cells)
