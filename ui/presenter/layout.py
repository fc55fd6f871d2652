"""Page layout that changes in the presenter view: one compact top bar, folded controls, a figure beside
its formula. In the normal view every helper here draws exactly what the page drew before."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ..i18n import _
from ..state import link_notes
from ..widths import chart_share
from .folds import fold_key, noting
from .state import leave_presenter_view, presenting

CONTROLS_ICON = ":material/tune:"
STAGE_PREFIX = "presenter_stage_"  # the stage's slots are keyed containers (CSS class st-key-presenter_stage_figure)
_STAGE: ContextVar[dict[str, tuple[DeltaGenerator, float]] | None] = ContextVar("presenter_stage", default=None)
# Drawn in the presenter bar, before Exit, on every page: what the presenter must see without the sidebar. Added to
# by the features that own them (ui.classroom.teacher: a teacher's live student count), so this module imports none.
BAR_ITEMS: list[Callable[[], None]] = []
# Whether this session's page folds its controls behind one line (in the normal view): a student following the
# teacher sees the teacher's content first, on a phone too. Added to by ui.classroom.following, so this module
# imports none.
FOLD_WHEN: list[Callable[[], bool]] = []


def folding() -> bool:
    return any(when() for when in FOLD_WHEN)


def page_header(title: str, intro: str = "", *, markdown: bool = False, keep: bool = False) -> DeltaGenerator | None:
    """The page's title and intro (a caption, or Markdown when `markdown`). In the presenter view, one bar: the title,
    then a slot for the page's folded controls and steppers (returned: pass it to `controls` and `step_buttons`),
    then Exit; the intro goes on the title's ⓘ unless `keep` (then it stays under the bar). Returns None normally."""
    if not presenting():
        st.title(title)
        if intro and not folding():  # a following student: the teacher's content first
            (st.markdown if markdown else st.caption)(intro)
        show_link_notes()
        return None
    bar = st.container(horizontal=True, vertical_alignment="center", gap="small", key="presenter_bar")
    bar.title(title, help=None if keep or not intro else intro, width="content", anchor=False)
    slot = bar.container(horizontal=True, vertical_alignment="center", gap="small", width="content")
    bar.space("stretch")
    for item in BAR_ITEMS:
        with bar:
            item()
    bar.button(
        _("Exit"), icon=":material/close_fullscreen:", on_click=leave_presenter_view, key="presenter_exit",
        help=_("Leave the presenter view (the sidebar's Presenter view switch does the same)."),
    )  # fmt: skip
    if keep and intro:
        st.markdown(intro)
    show_link_notes()
    return slot


def show_link_notes() -> None:
    """What the link asked for that the page could not show (ui.state), once, under the title."""
    for note in link_notes():
        st.warning(note, icon="⚠️")


@contextmanager
def controls(
    where: DeltaGenerator | None = None, label: str | None = None, *, lazy: bool = False, holds: tuple[str, ...] = ()
) -> Iterator[DeltaGenerator]:
    """`with controls(where):` around a page's widgets: normally a plain container (in `where` when given, else where
    it stands); in the presenter view a compact popover there (in page_header's bar, say) holding the same widgets,
    so their values still drive the page. `label` names the popover (default "Controls"). A following student's
    controls fold into a popover the same way (FOLD_WHEN); with `lazy`, that popover reruns the page when it opens or
    closes, and while it is closed `shut(box)` is True: the page may then draw the view without its widgets (a
    follower's rerun is the class's cost per student: docs/capacity.md); `holds` names their keys, so a teacher's
    change of one still scrolls the follower's page to this fold (ui.presenter.folds)."""
    host = where if where is not None else st
    if not presenting():
        if folding():  # one button; its widgets still hold the view (a change there means exploring on one's own)
            name = label or _("This page's settings")
            key = fold_key(name)
            on_change: Literal["rerun", "ignore"] = "rerun" if lazy else "ignore"
            with host.popover(name, icon=CONTROLS_ICON, key=key, on_change=on_change) as box, noting(key, holds):
                yield box
            return
        box = host.container()
        with box:  # `with container as x` binds None (DeltaGenerator.__enter__): the page gets the container itself
            yield box
        return
    if where is None:
        host = st.container(horizontal=True)
    with host.popover(label or _("Controls"), icon=CONTROLS_ICON) as box:
        yield box


def shut(box: DeltaGenerator) -> bool:
    """Whether `box` is a lazy fold of `controls` that is closed now (its widgets need not be drawn in this run)."""
    return getattr(box, "open", None) is False


@contextmanager
def stage(split: tuple[float, float] = (3, 2)) -> Iterator[None]:
    """In the presenter view, a two-column stage: formulas (then the prose) on the left, figures on the right,
    so a step's formula and its figure sit side by side at the top, and under both a full-width place for a figure
    that needs the width. Inside it, `slot("formula")`, `slot("figure")` and `slot("wide")` route output there;
    everything else goes under the formulas. Normally it changes nothing (every slot is where the code stands)."""
    if not presenting():
        yield
        return
    left, right = st.columns(split, gap="medium")
    wide = st.container(key=f"{STAGE_PREFIX}wide")
    shares = {"formula": split[0] / sum(split), "figure": split[1] / sum(split)}
    slots = {kind: (column.container(key=f"{STAGE_PREFIX}{kind}"), shares[kind])
             for kind, column in (("formula", left), ("figure", right))}  # fmt: skip
    slots["wide"] = (wide, 1.0)
    token = _STAGE.set(slots)
    try:
        with left.container(), chart_share(shares["formula"]):
            yield
    finally:
        _STAGE.reset(token)


@contextmanager
def slot(kind: str) -> Iterator[None]:
    """Inside `stage()`, draw into the stage's place for `kind` ("formula", "figure" or "wide"), its charts fitted to
    that place's width; elsewhere, where the code stands."""
    slots = _STAGE.get()
    if not slots:
        yield
        return
    box, share = slots[kind]
    with box, chart_share(share / slots["formula"][1]):  # called in the stage's body, which has the formula's share
        yield


def stage_columns(spec) -> list:
    """st.columns(spec) (each column's charts fitted to its width), except inside the presenter view's stage: there
    figures go to the stage's figure column anyway, so the other columns' content stacks in one full-width
    container (returned once per column)."""
    if _STAGE.get() is None:
        weights = [1.0] * spec if isinstance(spec, int) else [float(w) for w in spec]
        return [Column(column, w / sum(weights)) for column, w in zip(st.columns(spec), weights, strict=True)]
    box = st.container()
    return [box] * (spec if isinstance(spec, int) else len(spec))


class Column:
    """A column whose charts are fitted to its share of the width: `with column:` enters both; anything else (say
    column.caption) goes to the column itself."""

    def __init__(self, column: DeltaGenerator, share: float):
        self._column, self._share = column, share
        self._entered: list = []

    def __enter__(self) -> None:  # as a DeltaGenerator's: `with column:` binds nothing
        share = chart_share(self._share)
        self._entered.append(share)
        share.__enter__()
        self._column.__enter__()

    def __exit__(self, *exc) -> None:
        self._column.__exit__(*exc)
        self._entered.pop().__exit__(*exc)

    def __getattr__(self, name: str):
        return getattr(self._column, name)


def in_order(presenter_order: tuple[int, ...]) -> list[DeltaGenerator]:
    """Containers for the page's sections, drawn in code order normally and in `presenter_order` (a permutation
    of their indices) in the presenter view: e.g. in_order((1, 0)) puts the second section first when presenting."""
    boxes = [st.container() for _ in presenter_order]
    if not presenting():
        return boxes
    return [boxes[presenter_order.index(i)] for i in range(len(presenter_order))]
