"""Stepping with the keyboard: ◀ Previous / Next ▶ buttons that a presenter's clicker (Page Up / Page Down) and
the arrow keys (← / →) press. Used by the walkthrough's steps and the Train page's snapshots; lesson slides
can use it the same way.

Streamlit 1.67's st.button(shortcut=...) takes one key per button, ignores its shortcut while the focus is in a
text box, a select or a radio/checkbox input (for arrows, Page Up/Down, Home/End, letters), and registers no
shortcut on a disabled button. So each direction has a visible button (Page Up / Page Down) and, in the
presenter view, a hidden twin for the arrow key (its container is hidden by ui.presenter.style). Arrows are bound
only in the presenter view unless a page without sliders asks (the Lesson page): in the normal view a focused
slider or data editor uses them itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from .layout import folding
from .state import presenting
from .style import KEYS_ONLY_PREFIX

R = TypeVar("R")
CLICKER = ("PageUp", "PageDown")  # what a presenter's clicker sends: back, forward
SHORT = ("◀", "▶")  # the presenter bar's button labels: symbols, the same in every language
ARROWS = (("Left", "←"), ("Right", "→"))  # (shortcut, label of the hidden button)


@dataclass(frozen=True)
class StepLabels:
    """Translated words of a stepper's two buttons (label, tooltip each)."""

    previous: str
    next: str
    previous_help: str
    next_help: str


def _move(key: str, options: Sequence, delta: int) -> None:
    current = st.session_state.get(key, options[0])
    i = options.index(current) if current in options else 0
    st.session_state[key] = options[min(max(i + delta, 0), len(options) - 1)]


def step_buttons(
    key: str,
    options: Sequence,
    labels: StepLabels,
    *,
    button_key: str,
    where: DeltaGenerator | None = None,
    middle: Callable[[], R] | None = None,
    fold: DeltaGenerator | None = None,
    clicker_always: bool = True,
    arrows_always: bool = False,
) -> R | None:
    """Previous / Next buttons moving st.session_state[key] through `options` (keys f"{button_key}_prev|_next").

    Normal view: ◀ | middle() | ▶ in a row here. Presenter view: ◀ ▶ in `where` (page_header's bar) when given,
    middle() in `fold` (the page's controls popover) when given; for a following student (layout.folding) the
    whole row goes into `fold` when given. Page Up / Page Down press them always, or only
    in the presenter view when clicker_always is False (a page that scrolls keeps its Page Down); ← / → in the
    presenter view, and in the normal view too when arrows_always. Returns middle()'s value."""
    if fold is not None and not presenting() and folding():  # a following student: the row waits in the fold too
        with fold:
            return step_buttons(key, options, labels, button_key=button_key, middle=middle,
                                clicker_always=clicker_always, arrows_always=arrows_always)  # fmt: skip
    options = list(options)
    current = st.session_state.get(key, options[0])
    at = options.index(current) if current in options else 0
    first, last = at <= 0, at >= len(options) - 1
    present = presenting()
    clicker = CLICKER if clicker_always or present else (None, None)
    if present:
        row = where if where is not None else st.container(horizontal=True, vertical_alignment="center")
        prev_box, mid_box, next_box = row, fold if fold is not None else row, row
    else:
        prev_box, mid_box, next_box = st.columns([2, 5, 2], vertical_alignment="center")
    width: Literal["content", "stretch"] = "content" if present else "stretch"
    prev_box.button(SHORT[0] if present else labels.previous, on_click=_move, args=(key, options, -1), disabled=first,
                    key=f"{button_key}_prev", shortcut=clicker[0], help=labels.previous_help, width=width)  # fmt: skip
    if not present:
        with mid_box:
            value = middle() if middle else None
    next_box.button(SHORT[1] if present else labels.next, on_click=_move, args=(key, options, 1), disabled=last,
                    key=f"{button_key}_next", shortcut=clicker[1], help=labels.next_help, width=width)  # fmt: skip
    if present or arrows_always:
        hidden = next_box.container(key=f"{KEYS_ONLY_PREFIX}{button_key}")
        for (arrow, symbol), delta, off in ((ARROWS[0], -1, first), (ARROWS[1], 1, last)):
            hidden.button(symbol, on_click=_move, args=(key, options, delta), disabled=off,
                          key=f"{button_key}_{arrow.lower()}", shortcut=arrow)  # fmt: skip
    if present:
        with mid_box:
            value = middle() if middle else None
    return value
