"""Page layout that changes in the presenter view: one compact top bar, folded controls, a figure beside
its formula. In the normal view every helper here draws exactly what the page drew before."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ..i18n import _
from ..state import link_notes
from .state import leave_presenter_view, presenting

CONTROLS_ICON = ":material/tune:"
STAGE_PREFIX = "presenter_stage_"  # the stage's slots are keyed containers (CSS class st-key-presenter_stage_figure)
_STAGE: ContextVar[dict[str, DeltaGenerator] | None] = ContextVar("presenter_stage", default=None)
# Drawn in the presenter bar, before Exit, on every page: what the presenter must see without the sidebar. Added to
# by the features that own them (ui.classroom.teacher: a teacher's live student count), so this module imports none.
BAR_ITEMS: list[Callable[[], None]] = []


def page_header(title: str, intro: str = "", *, markdown: bool = False, keep: bool = False) -> DeltaGenerator | None:
    """The page's title and intro (a caption, or Markdown when `markdown`). In the presenter view, one bar: the title,
    then a slot for the page's folded controls and steppers (returned: pass it to `controls` and `step_buttons`),
    then Exit; the intro goes on the title's ⓘ unless `keep` (then it stays under the bar). Returns None normally."""
    if not presenting():
        st.title(title)
        if intro:
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
def controls(where: DeltaGenerator | None = None, label: str | None = None) -> Iterator[DeltaGenerator]:
    """`with controls(where):` around a page's widgets: normally a plain container (in `where` when given, else where
    it stands); in the presenter view a compact popover there (in page_header's bar, say) holding the same widgets,
    so their values still drive the page. `label` names the popover (default "Controls")."""
    host = where if where is not None else st
    if not presenting():
        with host.container() as box:
            yield box
        return
    if where is None:
        host = st.container(horizontal=True)
    with host.popover(label or _("Controls"), icon=CONTROLS_ICON) as box:
        yield box


@contextmanager
def stage(split: tuple[float, float] = (3, 2)) -> Iterator[None]:
    """In the presenter view, a two-column stage: formulas (then the prose) on the left, figures on the right,
    so a step's formula and its figure sit side by side at the top. Inside it, `slot("formula")` and
    `slot("figure")` route output there; everything else goes under the formulas. Normally it changes nothing."""
    if not presenting():
        yield
        return
    left, right = st.columns(split, gap="medium")
    slots = {
        kind: column.container(key=f"{STAGE_PREFIX}{kind}") for kind, column in (("formula", left), ("figure", right))
    }
    token = _STAGE.set(slots)
    try:
        with left.container():
            yield
    finally:
        _STAGE.reset(token)


def slot(kind: str):
    """The stage's container for `kind` ("formula" or "figure") inside `stage()`, else a no-op context."""
    slots = _STAGE.get()
    return slots[kind] if slots else nullcontext()


def stage_columns(spec) -> list[DeltaGenerator]:
    """st.columns(spec), except inside the presenter view's stage: there figures go to the stage's figure column
    anyway, so the other columns' content stacks in one full-width container (returned once per column)."""
    if _STAGE.get() is None:
        return list(st.columns(spec))
    box = st.container()
    return [box] * (spec if isinstance(spec, int) else len(spec))


def in_order(presenter_order: tuple[int, ...]) -> list[DeltaGenerator]:
    """Containers for the page's sections, drawn in code order normally and in `presenter_order` (a permutation
    of their indices) in the presenter view: e.g. in_order((1, 0)) puts the second section first when presenting."""
    boxes = [st.container() for _ in presenter_order]
    if not presenting():
        return boxes
    return [boxes[presenter_order.index(i)] for i in range(len(presenter_order))]
